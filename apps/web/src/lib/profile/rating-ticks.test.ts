import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ratingTicks } from './rating-ticks';

describe('ratingTicks', () => {
  it('labels a rating graph with round values inside what it shows', () => {
    expect(ratingTicks(1305, 1754)).toEqual([1400, 1500, 1600, 1700]);
    // A flat history at the start rating, shown ±23 around it.
    expect(ratingTicks(1477, 1523)).toEqual([1480, 1500, 1520]);
    expect(ratingTicks(600, 2400)).toEqual([1000, 1500, 2000]);
  });

  it('gives between two and four values, all inside, evenly spaced, for any span of at least 20 points', () => {
    fc.assert(
      fc.property(fc.double({ min: 100, max: 3000, noNaN: true }), fc.double({ min: 20, max: 3000, noNaN: true }), (bottom, span) => {
        const ticks = ratingTicks(bottom, bottom + span);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(4);
        for (const tick of ticks) expect(tick >= bottom && tick <= bottom + span).toBe(true);
        const steps = new Set(ticks.slice(1).map((tick, i) => tick - ticks[i]!));
        expect(steps.size).toBe(1);
      }),
    );
  });
});
