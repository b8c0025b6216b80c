import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatMove, parseMove, type Direction, type Player } from '@oanquan/rules';
import { boardLayout } from '../board/layout.js';
import { moveName, nameOfNotation, notationOfName, rotationOf } from './move-name.js';

/** Where a square is drawn for a viewer with `bottom`'s row below: column 0–6 left to right, row 0 top, 1 bottom. */
function spot(square: number, bottom: Player): { x: number; y: number } {
  const layout = boardLayout(bottom);
  if (square === layout.left) return { x: 0, y: 0.5 };
  if (square === layout.right) return { x: 6, y: 0.5 };
  const top = layout.top.indexOf(square);
  return top >= 0 ? { x: top + 1, y: 0 } : { x: layout.bottom.indexOf(square) + 1, y: 1 };
}

const anyMove = fc.record({
  seat: fc.constantFrom<Player>(0, 1),
  k: fc.integer({ min: 1, max: 5 }),
  dir: fc.constantFrom<Direction>(1, -1),
});

describe('the name of a move', () => {
  it('maps R7.1 text one to one, both ways', () => {
    fc.assert(
      fc.property(anyMove, ({ seat, k, dir }) => {
        const move = { square: 6 * seat + k, dir };
        const notation = formatMove(move, seat);
        const name = moveName({ seat, ...move });
        expect(nameOfNotation(notation)).toBe(name);
        expect(notationOfName(name)).toBe(notation);
        expect(parseMove(notationOfName(name)!, seat)).toEqual(move);
      }),
    );
    const names = new Set(['1>', '2>', '3>', '4>', '5>', '1<', '2<', '3<', '4<', '5<'].map(nameOfNotation));
    expect(names.size).toBe(10);
  });

  it('refuses what is neither form', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), (text) => {
        const name = nameOfNotation(text);
        if (name !== null) expect(notationOfName(name)).toBe(text);
        const notation = notationOfName(text);
        if (notation !== null) expect(nameOfNotation(notation)).toBe(text);
      }),
    );
    for (const text of ['0>', '6<', '3', '3→', '3↺↺', '', 'a↻']) {
      expect(nameOfNotation(text)).toBeNull();
      expect(notationOfName(text)).toBeNull();
    }
    expect(nameOfNotation('3↺')).toBeNull();
    expect(notationOfName('3>')).toBeNull();
  });

  it('names the rotation the stones take on the screen of both viewers, for either mover', () => {
    fc.assert(
      fc.property(anyMove, fc.constantFrom<Player>(0, 1), ({ seat, k, dir }, viewer) => {
        // The first two squares the stones fall on, as drawn: their turn around the board's centre.
        const centre = { x: 3, y: 0.5 };
        const from = spot(6 * seat + k, viewer);
        const to = spot((6 * seat + k + dir + 12) % 12, viewer);
        // Screen y grows downward, so a positive cross product is a clockwise turn.
        const cross = (from.x - centre.x) * (to.y - centre.y) - (from.y - centre.y) * (to.x - centre.x);
        expect(rotationOf(dir)).toBe(cross > 0 ? 'cw' : 'ccw');
      }),
    );
  });

  it('writes the top player’s 3< (R7.1’s example) as 3↻ and the first player’s 2> as 2↺', () => {
    expect(moveName({ seat: 1, square: 9, dir: -1 })).toBe('3↻');
    expect(moveName({ seat: 0, square: 2, dir: 1 })).toBe('2↺');
  });
});
