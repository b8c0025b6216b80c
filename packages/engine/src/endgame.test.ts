import { play, stateFromPosition, type Position } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { bestMove } from './best-move.js';
import { solveEndgame, withinEndgameLimit } from './endgame.js';
import { bruteForce } from './testing/brute-force.js';

/** Both quan pieces taken, one dân in each mandarin square, two in play on the rows, two in the stocks; ten plies before the ply limit. */
const POSITION: Position = {
  squares: [1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0],
  quan: [false, false],
  captured: [
    { dan: 1, quan: 1 },
    { dan: 1, quan: 1 },
  ],
  debt: [0, 0],
  toMove: 0,
  ply: 390,
  status: 'playing',
  result: null,
};

describe('exact endgames in play', () => {
  const state = stateFromPosition(POSITION, { quanValue: 10 });

  it('level 8 plays a proved result: its value is the brute force one, and so is its move', () => {
    expect(withinEndgameLimit(state)).toBe(true);
    const exact = bruteForce(state);
    const chosen = bestMove(state, { level: 8 });
    expect(chosen.exact).toBe(true);
    expect(chosen.eval).toBe(exact);
    const next = play(state, chosen.move);
    if (!next.ok) throw new Error(next.code);
    expect(0 - bruteForce(next.state)).toBe(exact);
  });

  it('beyond the limit level 8 gives the search its whole node budget', () => {
    const start = stateFromPosition({ ...POSITION, squares: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5], quan: [true, true], captured: [{ dan: 0, quan: 0 }, { dan: 0, quan: 0 }], ply: 0 });
    // A failed try would count its nodes (a twentieth of the budget, here the solver's whole budget) in the result.
    expect(bestMove(start, { level: 8, depth: 3 })).toEqual(bestMove(start, { level: 8, depth: 3, exactEndgames: false }));
  });

  it('lower levels and explicit budgets search as before', () => {
    expect(bestMove(state, { level: 7 }).exact).toBeUndefined();
    expect(bestMove(state, { depth: 6 }).exact).toBeUndefined();
    expect(bestMove(state, { level: 8, exactEndgames: false }).exact).toBeUndefined();
  });

  it('reports nothing beyond the limit or without the budget to prove it', () => {
    const crowded = stateFromPosition({ ...POSITION, squares: [1, 3, 3, 0, 0, 0, 1, 3, 3, 0, 0, 0], captured: [{ dan: 1, quan: 1 }, { dan: 1, quan: 1 }] });
    expect(withinEndgameLimit(crowded)).toBe(false);
    expect(solveEndgame(crowded)).toBeNull();
    expect(solveEndgame(state, { nodes: 1 })).toBeNull();
    expect(solveEndgame(state)?.value).toBe(bruteForce(state));
  });
});
