/** Steps a rating axis may count in: round numbers a reader adds up at a glance. */
const STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000] as const;

/**
 * The values to label on a rating graph's axis that shows `bottom` to `top`:
 * multiples of the smallest round step that gives at most `most` of them,
 * lowest first.
 */
export function ratingTicks(bottom: number, top: number, most = 4): number[] {
  for (const step of STEPS) {
    const first = Math.ceil(bottom / step) * step;
    const count = Math.floor((top - first) / step) + 1;
    if (count <= most) return Array.from({ length: Math.max(0, count) }, (_, i) => first + i * step);
  }
  return [];
}
