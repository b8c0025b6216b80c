import { describe, expect, it } from 'vitest';
import { chanceLost, judgeMove, labelOf, moveAccuracy, POINT_THRESHOLDS, pointsWeight } from './move-judgement.js';

describe('the judgement of a move', () => {
  it('labels by the loss, at the documented thresholds', () => {
    expect([0, 0.019, 0.02, 0.099, 0.1, 0.199, 0.2, 0.299, 0.3, 0.9].map(labelOf)).toEqual([
      'best',
      'best',
      'good',
      'good',
      'inaccuracy',
      'inaccuracy',
      'mistake',
      'mistake',
      'blunder',
      'blunder',
    ]);
    expect(chanceLost(-5, 2)).toBe(0);
    expect(moveAccuracy(60, 60)).toBeCloseTo(100, 0);
    expect(moveAccuracy(90, 10)).toBeLessThan(5);
  });

  it('reads the thresholds in points as the documented 0.6, 3, 6.2 and 10.1, a blunder about a quan piece', () => {
    expect(POINT_THRESHOLDS.good).toBeCloseTo(0.6, 1);
    expect(POINT_THRESHOLDS.inaccuracy).toBeCloseTo(3, 1);
    expect(POINT_THRESHOLDS.mistake).toBeCloseTo(6.2, 1);
    expect(POINT_THRESHOLDS.blunder).toBeCloseTo(10.1, 1);
    for (const [label, points] of Object.entries(POINT_THRESHOLDS)) {
      expect(judgeMove(0, points + 0.01).label).toBe(label);
      expect(judgeMove(0, points - 0.01).label).not.toBe(label);
    }
    expect(pointsWeight(0)).toBe(0);
    expect(pointsWeight(-3)).toBe(0);
  });

  it('judges ten points thrown away in a lost game a blunder, though the win chance hardly moves', () => {
    // From 40 points behind to 50: the chance to win goes from 0.4 % to 0.1 %.
    const lost = chanceLost(-40, -50);
    expect(lost).toBeLessThan(0.01);
    expect(labelOf(lost)).toBe('best');
    const judged = judgeMove(lost, 10.5);
    expect(judged.label).toBe('blunder');
    expect(judged.accuracy).toBeLessThan(30);
    // Half a point lost in the same game is still a good move.
    expect(judgeMove(chanceLost(-40, -40.5), 0.5)).toEqual({ label: 'best', accuracy: expect.closeTo(93, 0) });
  });

  it('judges a close game by its win chance when that weighs more than the points', () => {
    // Two points from a level game, where a quan piece hangs on the next move: the chance says more.
    expect(judgeMove(0.25, 2).label).toBe('mistake');
    expect(judgeMove(chanceLost(3, -7), 10).label).toBe('blunder');
    expect(judgeMove(0, 0)).toEqual({ label: 'best', accuracy: expect.closeTo(100, 3) });
    for (const points of [0, 1, 3, 6, 10, 20]) {
      const { accuracy } = judgeMove(0, points);
      expect(accuracy).toBeGreaterThanOrEqual(0);
      expect(accuracy).toBeLessThanOrEqual(100);
      expect(accuracy).toBeLessThanOrEqual(judgeMove(0, Math.max(0, points - 1)).accuracy);
    }
  });
});
