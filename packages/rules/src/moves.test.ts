// R3.1 legal moves and the R8 error codes in their fixed order.

import { describe, expect, it } from 'vitest';
import { checkMove, moveOf } from './moves.js';
import { legalMoves } from './play.js';
import { startPosition } from './position.js';
import { newGame } from './state.js';
import { studyPosition } from './testing/study.js';

describe('R3.1 legal moves', () => {
  it('are every non-empty own citizen square, both ways', () => {
    expect(legalMoves(newGame({ first: 1 })).map((m) => [m.square, m.dir])).toEqual(
      [7, 8, 9, 10, 11].flatMap((square) => [
        [square, 1],
        [square, -1],
      ]),
    );
    const position = studyPosition([3, 0, 2, 0, 0, 1, 4, 0, 0, 1, 0, 0]);
    expect(legalMoves(position)).toEqual([moveOf(2, 1), moveOf(2, -1), moveOf(5, 1), moveOf(5, -1)]);
  });

  it('are none once the game has ended', () => {
    const ended = { ...startPosition(), status: 'ended' as const, result: { reason: 'ply-limit' as const, score: [0, 0] as const, winner: null } };
    expect(legalMoves(ended)).toEqual([]);
  });

  it('come as shared frozen objects that callers cannot corrupt', () => {
    const moves = legalMoves(startPosition());
    expect(Object.isFrozen(moves)).toBe(true);
    expect(Object.isFrozen(moves[0])).toBe(true);
  });
});

describe('checkMove', () => {
  const playing = startPosition(0);
  const ended = { ...playing, status: 'ended' as const, result: { reason: 'quan-gone' as const, score: [35, 35] as const, winner: null } };
  const sparse = studyPosition([0, 0, 3, 0, 0, 0, 0, 5, 5, 5, 5, 5]);

  it.each([
    ['a legal move', playing, { square: 3, dir: -1 }, null],
    ['any move once ended', ended, { square: 3, dir: 1 }, 'ERR_GAME_OVER'],
    ['a malformed move once ended', ended, 'x', 'ERR_GAME_OVER'],
    ['null', playing, null, 'ERR_BAD_MOVE'],
    ['a string', playing, '3>', 'ERR_BAD_MOVE'],
    ['a square out of the ring', playing, { square: 12, dir: 1 }, 'ERR_BAD_MOVE'],
    ['a negative square', playing, { square: -1, dir: 1 }, 'ERR_BAD_MOVE'],
    ['a fractional square', playing, { square: 2.5, dir: 1 }, 'ERR_BAD_MOVE'],
    ['a square given as text', playing, { square: '2', dir: 1 }, 'ERR_BAD_MOVE'],
    ['a missing direction', playing, { square: 2 }, 'ERR_BAD_MOVE'],
    ['direction 0', playing, { square: 2, dir: 0 }, 'ERR_BAD_MOVE'],
    ['a bad direction on the opponent’s square', playing, { square: 8, dir: 2 }, 'ERR_BAD_MOVE'],
    ['the opponent’s square', playing, { square: 8, dir: 1 }, 'ERR_NOT_YOUR_SQUARE'],
    ['a mandarin square', playing, { square: 0, dir: 1 }, 'ERR_NOT_YOUR_SQUARE'],
    ['the other mandarin square', playing, { square: 6, dir: -1 }, 'ERR_NOT_YOUR_SQUARE'],
    ['an empty own square', sparse, { square: 4, dir: 1 }, 'ERR_EMPTY_SQUARE'],
    ['an empty opponent square', studyPosition([0, 0, 3, 0, 0, 0, 0, 0, 5, 5, 5, 5]), { square: 7, dir: 1 }, 'ERR_NOT_YOUR_SQUARE'],
  ] as const)('%s', (_, position, move, code) => {
    expect(checkMove(position, move)).toBe(code);
  });
});
