import { describe, expect, it } from 'vitest';
import { scoreInterval } from './score-interval.js';

describe('the 95 % interval of a score', () => {
  it('stays inside [0, 1], narrows with more games and keeps an all-wins record short of certainty', () => {
    const [low16, high16] = scoreInterval(1, 16);
    expect(high16).toBe(1);
    expect(low16).toBeCloseTo(0.806, 3);
    const [low, high] = scoreInterval(0.5, 100);
    expect(low).toBeCloseTo(0.404, 3);
    expect(high).toBeCloseTo(0.596, 3);
    const [wideLow, wideHigh] = scoreInterval(0.5, 10);
    expect(wideHigh - wideLow).toBeGreaterThan(high - low);
    expect(scoreInterval(0, 0)).toEqual([0, 1]);
  });
});
