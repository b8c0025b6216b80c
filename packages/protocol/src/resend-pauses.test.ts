import { describe, expect, it } from 'vitest';
import { resendPauseMs, resendStepsMs } from './resend-pauses.js';

describe('resend pauses', () => {
  it('grow by step and stay at the last one', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 9].map((attempt) => resendPauseMs(attempt, middle))).toEqual([100, 250, 500, 1000, 1000, 1000]);
  });

  it('spread clients refused together over half to one and a half times the step', () => {
    for (const [attempt, step] of resendStepsMs.entries()) {
      expect(resendPauseMs(attempt, () => 0)).toBe(step / 2);
      expect(resendPauseMs(attempt, () => 0.999_999)).toBe(Math.round(step * 1.5));
    }
    const pauses = new Set(Array.from({ length: 200 }, () => resendPauseMs(3)));
    expect(pauses.size).toBeGreaterThan(50);
    expect(Math.min(...pauses)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...pauses)).toBeLessThanOrEqual(1500);
  });
});
