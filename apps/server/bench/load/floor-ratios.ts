import { times } from './stats.js';

/** The server's figures over the floor relay's, from one floor run and the server run right after it. */
export interface FloorRatio {
  games: number;
  processes: number;
  p50: number;
  p99: number;
  cpu: number;
  /** Null on PGlite, whose work is in the server's process. */
  database: number | null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * With --repeat, each number of games is measured several times, floor and
 * server back to back each time: one pair's ratio moves by a third from run
 * to run on these machines (other work, where the scheduler puts things), so
 * the median over the pairs is the figure, and the spread is printed with it.
 */
export function floorRatioMedians(ratios: FloorRatio[]): void {
  const groups = new Map<string, FloorRatio[]>();
  for (const r of ratios) {
    const label = `${r.games} games, ${r.processes} process${r.processes > 1 ? 'es' : ''}`;
    groups.set(label, [...(groups.get(label) ?? []), r]);
  }
  for (const [label, group] of groups) {
    if (group.length < 2) continue;
    const figure = (name: string, values: number[], digits?: number) => {
      const show = (x: number) => (digits === undefined ? times(x) : x.toFixed(digits));
      return `${name} ×${show(median(values))} (${values.map(show).join(', ')})`;
    };
    const database = group.map((r) => r.database).filter((x) => x !== null);
    console.log(
      `\n${label}, server ÷ floor relay, median of ${group.length} pairs (each pair's): ` +
        [figure('ack p50', group.map((r) => r.p50)), figure('p99', group.map((r) => r.p99)), figure('CPU per move', group.map((r) => r.cpu), 2), ...(database.length ? [figure('PostgreSQL CPU per move', database, 2)] : [])].join('; '),
    );
  }
}
