// R8: replay(setup, moves) and the exact JSON shape of its positions.

import { describe, expect, it } from 'vitest';
import { replay } from './replay.js';

describe('R8 replay', () => {
  it('returns the start as positions[0], in exactly the R8 JSON', () => {
    const result = replay({}, []);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(JSON.stringify(result.positions)).toBe(
      '[{"squares":[0,5,5,5,5,5,0,5,5,5,5,5],"quan":[true,true],' +
        '"captured":[{"dan":0,"quan":0},{"dan":0,"quan":0}],"debt":[0,0],' +
        '"toMove":0,"ply":0,"status":"playing","result":null}]',
    );
  });

  it('gives the position after each move (R9 E1 then a reply by player 1)', () => {
    const result = replay({ first: 0 }, [
      { square: 1, dir: -1 },
      { square: 9, dir: 1 },
    ]);
    if (!result.ok) throw new Error(result.error.code);
    expect(result.positions).toHaveLength(3);
    expect(JSON.parse(JSON.stringify(result.positions[1]))).toEqual({
      squares: [0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6],
      quan: [false, true],
      captured: [
        { dan: 1, quan: 1 },
        { dan: 0, quan: 0 },
      ],
      debt: [0, 0],
      toMove: 1,
      ply: 1,
      status: 'playing',
      result: null,
    });
    expect(result.positions[2]!.ply).toBe(2);
    expect(result.positions[2]!.toMove).toBe(0);
  });

  it('honours the rules and the first player of the setup', () => {
    const result = replay({ rules: { quanNon: 5, emptyQuanIsGap: true }, first: 1 }, [{ square: 11, dir: 1 }]);
    if (!result.ok) throw new Error(result.error.code);
    // Player 1's mirror of R9 E2: 11> reaches 4, relays 5 dân from square 5
    // up to 10; 11 is empty, square 0 holds its quan and 1 dân: quan non.
    expect(result.positions[0]!.toMove).toBe(1);
    expect(result.positions[1]!.squares).toEqual([1, 6, 6, 6, 6, 0, 1, 6, 6, 6, 6, 0]);
  });

  it('ends an ended game with status "ended" and the result', () => {
    const result = replay({ rules: { plyLimit: 1 } }, [{ square: 2, dir: 1 }]);
    if (!result.ok) throw new Error(result.error.code);
    expect(result.positions[1]).toMatchObject({
      squares: [1, 6, 0, 0, 6, 6, 1, 6, 0, 6, 6, 6],
      status: 'ended',
      result: { reason: 'ply-limit', score: [25, 25], winner: null },
    });
  });

  it.each([
    { moves: [{ square: 7, dir: 1 }], error: { ply: 0, code: 'ERR_NOT_YOUR_SQUARE' } },
    { moves: [{ square: 0, dir: 1 }], error: { ply: 0, code: 'ERR_NOT_YOUR_SQUARE' } },
    { moves: [{ square: 12, dir: 1 }], error: { ply: 0, code: 'ERR_BAD_MOVE' } },
    { moves: [{ square: 1, dir: 0 }], error: { ply: 0, code: 'ERR_BAD_MOVE' } },
    { moves: [{ square: 1, dir: -1 }, { square: 7, dir: 1 }], error: { ply: 1, code: 'ERR_EMPTY_SQUARE' } },
    { moves: [{ square: 2, dir: 1 }, { square: 8, dir: 1 }], error: { ply: 1, code: 'ERR_EMPTY_SQUARE' } },
  ])('stops at the first illegal move: $error.code at ply $error.ply', ({ moves, error }) => {
    expect(replay({}, moves as never)).toEqual({ ok: false, error });
  });

  it('reports ERR_GAME_OVER for a move after the end', () => {
    expect(replay({ rules: { plyLimit: 1 } }, [{ square: 2, dir: 1 }, { square: 7, dir: 1 }])).toEqual({
      ok: false,
      error: { ply: 1, code: 'ERR_GAME_OVER' },
    });
  });

  it('throws on an invalid setup, which is not a move', () => {
    expect(() => replay({ rules: { plyLimit: 0 } }, [])).toThrow(RangeError);
    expect(() => replay({ first: 2 as never }, [])).toThrow(RangeError);
  });
});
