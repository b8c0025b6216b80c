/** The move rate around a fault, from the times moves were acknowledged (milliseconds). */

/** Counts per `bucketMs` bucket from `from` (inclusive) to `to` (exclusive). */
export function buckets(times: readonly number[], from: number, to: number, bucketMs = 1_000): number[] {
  const counts = new Array<number>(Math.max(0, Math.ceil((to - from) / bucketMs))).fill(0);
  for (const at of times) if (at >= from && at < to) counts[Math.floor((at - from) / bucketMs)]!++;
  return counts;
}

/** Moves per second over [from, to). */
export function rateBetween(times: readonly number[], from: number, to: number): number {
  let count = 0;
  for (const at of times) if (at >= from && at < to) count++;
  return (count * 1_000) / (to - from);
}

export interface Recovery {
  /** From `since`: when the one-second windows fell below the threshold on the way to the lowest (null: none did). */
  dipAtMs: number | null;
  /** From `since`: the start of the first one-second window after the lowest that, with the second after it, is back at the threshold: from then on the rate was full (null: not within `until`). */
  backAtMs: number | null;
  /** The lowest one-second window after `since`, in moves/s. */
  lowest: number;
}

/**
 * When the rate was back: sliding one-second windows, stepped by `stepMs`,
 * from `since` (the kill, the signal, the database's return) up to `until`.
 * The trough is the lowest window; back means two whole seconds in a row at
 * `threshold` × the rate before, after it, so one lucky window in a trough
 * does not count; with no window below it the rate never left and the
 * answer is 0.
 */
export function recovery(times: readonly number[], before: number, since: number, until: number, threshold = 0.9, stepMs = 100): Recovery {
  const sorted = [...times].sort((a, b) => a - b);
  // Counts in [t, t + 1 s) by two moving indices over the sorted times.
  let lo = 0;
  let hi = 0;
  const countFrom = (t: number) => {
    while (lo < sorted.length && sorted[lo]! < t) lo++;
    if (hi < lo) hi = lo;
    while (hi < sorted.length && sorted[hi]! < t + 1_000) hi++;
    return hi - lo;
  };
  const floor = threshold * before;
  const windows: Array<{ t: number; count: number }> = [];
  for (let t = since; t + 1_000 <= until; t += stepMs) windows.push({ t, count: countFrom(t) });
  const lowest = Math.min(...windows.map((w) => w.count));
  if (lowest >= floor) return { dipAtMs: null, backAtMs: 0, lowest };
  // The trough is the run of windows below the floor around the lowest one; a dip of noise before it is not the fault's.
  const deepest = windows.findIndex((w) => w.count === lowest);
  let dip = deepest;
  while (dip > 0 && windows[dip - 1]!.count < floor) dip--;
  const perSecond = Math.round(1_000 / stepMs);
  for (let i = deepest; i + perSecond < windows.length; i++) {
    if (windows[i]!.count >= floor && windows[i + perSecond]!.count >= floor) return { dipAtMs: windows[dip]!.t - since, backAtMs: windows[i]!.t - since, lowest };
  }
  return { dipAtMs: windows[dip]!.t - since, backAtMs: null, lowest };
}
