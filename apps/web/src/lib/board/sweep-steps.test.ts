import { describe, expect, it } from 'vitest';
import { sweepSteps, sweptSquares } from './sweep-steps.js';

describe('the final sweep (R5.1)', () => {
  const squares = [3, 1, 0, 2, 0, 0, 0, 0, 4, 0, 0, 1];

  it('takes each row to its owner, then splits the mandarin squares, skipping empty squares', () => {
    expect(sweepSteps({ squares })).toEqual([
      { square: 1, count: 1, to: 0 },
      { square: 3, count: 2, to: 0 },
      { square: 8, count: 4, to: 1 },
      { square: 11, count: 1, to: 1 },
      { square: 0, count: 3, to: 'split' },
    ]);
  });

  it('empties the swept squares step by step and conserves what it moves', () => {
    const steps = sweepSteps({ squares });
    expect(sweptSquares(squares, steps, 2)).toEqual([3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 1]);
    expect(sweptSquares(squares, steps, steps.length)).toEqual(Array(12).fill(0));
    expect(steps.reduce((sum, step) => sum + step.count, 0)).toBe(squares.reduce((a, b) => a + b, 0));
  });
});
