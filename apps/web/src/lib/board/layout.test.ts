import { describe, expect, it } from 'vitest';
import { step } from '@oanquan/rules';
import { boardLayout, stoneSpot } from './layout.js';

describe('boardLayout', () => {
  it('puts player 0 as R1.2 says: 0 left, 1–5 along the bottom, 6 right, 7–11 right to left on top', () => {
    expect(boardLayout(0)).toEqual({ left: 0, right: 6, top: [11, 10, 9, 8, 7], bottom: [1, 2, 3, 4, 5] });
  });

  it('turns the board for player 1 so their squares run 1–5 from their own left', () => {
    expect(boardLayout(1)).toEqual({ left: 6, right: 0, top: [5, 4, 3, 2, 1], bottom: [7, 8, 9, 10, 11] });
  });

  it('makes +1 point to the right along the bottom row for both players (R1.3)', () => {
    for (const seat of [0, 1] as const) {
      const { bottom, right } = boardLayout(seat);
      for (let i = 0; i < 4; i++) expect(step(bottom[i]!, 1)).toBe(bottom[i + 1]);
      expect(step(bottom[4]!, 1)).toBe(right);
    }
  });

  it('keeps every stone inside its square', () => {
    for (let i = 0; i < 40; i++) {
      for (const tall of [false, true]) {
        const { x, y } = stoneSpot(i, tall);
        expect(x).toBeGreaterThan(5);
        expect(x).toBeLessThan(95);
        expect(y).toBeGreaterThan(5);
        expect(y).toBeLessThan(95);
      }
    }
  });
});
