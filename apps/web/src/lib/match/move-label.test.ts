import { describe, expect, it } from 'vitest';
import { formatMove } from '@oanquan/rules';
import { boardLayout } from '../board/layout.js';
import { moveLabel, screenSide } from './move-label.js';

describe('moves as the viewer sees them', () => {
  it('points the way the stones travel across the screen, for both rows and both viewers', () => {
    for (const bottom of [0, 1] as const) {
      const layout = boardLayout(bottom);
      // Left to right on screen: the bottom row as drawn, and the top row as drawn.
      for (const row of [layout.bottom, layout.top]) {
        for (let i = 0; i < 4; i++) {
          const square = row[i]!;
          const seat = square < 6 ? 0 : 1;
          const towardNext = row[i + 1]! === (square + 1) % 12 ? 1 : -1;
          expect(screenSide(seat, towardNext, bottom)).toBe('right');
          expect(screenSide(seat, towardNext === 1 ? -1 : 1, bottom)).toBe('left');
        }
      }
    }
  });

  it('writes R7.1’s 3< of the top player as 3→ for the viewer below, and keeps the number', () => {
    const move = { seat: 1 as const, square: 9, dir: -1 as const };
    expect(formatMove(move, 1)).toBe('3<');
    expect(moveLabel(move, 0)).toBe('3→');
    expect(moveLabel(move, 1)).toBe('3←');
    expect(moveLabel({ seat: 0, square: 2, dir: 1 }, 0)).toBe('2→');
    expect(moveLabel({ seat: 0, square: 2, dir: 1 }, 1)).toBe('2←');
  });
});
