/** Latency figures of one run: percentiles over every sample, in milliseconds. */
export interface Percentiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

export const ms = (x: number) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(1)) : '–');

/** A ratio with two significant digits, so one far below 1 does not print as 0.0. */
export function times(ratio: number): string {
  return ratio >= 10 ? ratio.toFixed(0) : ratio.toPrecision(2);
}

export function formatPercentiles(p: Percentiles): string {
  return `p50 ${ms(p.p50)} / p90 ${ms(p.p90)} / p99 ${ms(p.p99)} / max ${ms(p.max)} ms (n=${p.count})`;
}

/** A count per key, for errors by code. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }
  toString(): string {
    return this.counts.size ? [...this.counts].map(([key, n]) => `${key} ${n}`).join(', ') : 'none';
  }
}

/** Runs `task` over `items` with at most `limit` at once. */
export async function inBatches<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}
