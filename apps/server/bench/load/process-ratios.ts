import { ms, times, type Percentiles } from './stats.js';

/** What a comparison of process counts reads of one run's figures. */
export interface RunFigures {
  ack: Percentiles;
  relayed: Percentiles;
  achieved: number;
  cpuPerMoveMs: number;
  /** The load average (1, 5, 15 minutes) at the end of the measured window. */
  load: number[];
}

/**
 * Several processes against one, the same number of games in the same run:
 * latency and CPU per move. Each run of several is set against the run of one
 * process nearest it in time (`--processes 1,2,2,1` alternates them), as the
 * machine's other work comes and goes.
 */
export function processRatios(results: Array<{ run: { games: number; processes: number }; figures: RunFigures }>): void {
  for (const [index, { run, figures: f }] of results.entries()) {
    if (run.processes === 1) continue;
    const ones = results.map((r, i) => ({ ...r, distance: Math.abs(i - index) })).filter((r) => r.run.processes === 1 && r.run.games === run.games);
    const one = ones.sort((x, y) => x.distance - y.distance)[0]?.figures;
    if (!one) continue;
    console.log(
      `\n${run.games} games, ${run.processes} processes ÷ 1: ack p50 ×${times(f.ack.p50 / one.ack.p50)}, p99 ×${times(f.ack.p99 / one.ack.p99)} (${ms(f.ack.p99)} / ${ms(one.ack.p99)} ms); ` +
        `event at the opponent p50 ×${times(f.relayed.p50 / one.relayed.p50)}, p99 ×${times(f.relayed.p99 / one.relayed.p99)}; ` +
        `moves/s ${f.achieved.toFixed(0)} / ${one.achieved.toFixed(0)}; CPU per move ×${(f.cpuPerMoveMs / one.cpuPerMoveMs).toFixed(2)} (${f.cpuPerMoveMs.toFixed(3)} / ${one.cpuPerMoveMs.toFixed(3)} ms); ` +
        `load average ${f.load[0]!.toFixed(2)} / ${one.load[0]!.toFixed(2)}`,
    );
  }
}
