// The search API: only legal moves, a forced capture chain (R9 E4 with
// distractions), exact play of endgames against a full solve by the rules
// themselves, determinism under a seed, and low levels that play imperfectly.

import fc from 'fast-check';
import {
  legalMoves,
  newGame,
  play,
  playFast,
  scorePosition,
  stateFromPosition,
  type Move,
  type Player,
  type Position,
  type RuleOptions,
  type State,
} from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { bestMove } from './best-move.js';
import { LEVELS } from './levels.js';
import { arbitraryGame, arbitraryRules, playingStateOf } from './testing/arbitrary.js';

function study(squares: number[], extra: Partial<Position> = {}, rules?: Partial<RuleOptions>): State {
  return stateFromPosition(
    {
      squares,
      quan: [true, true],
      captured: [
        { dan: 0, quan: 0 },
        { dan: 0, quan: 0 },
      ],
      debt: [0, 0],
      toMove: 0,
      ply: 0,
      status: 'playing',
      result: null,
      ...extra,
    },
    rules,
  );
}

const isLegal = (state: State, move: Move) =>
  legalMoves(state).some((m) => m.square === move.square && m.dir === move.dir);

/** Final margin from the mover's view of `state` with best play by both, by the rules alone; null if a line ends by repetition. */
function solve(state: State): number | null {
  const position = state.position;
  if (position.status === 'ended') {
    if (position.result!.reason === 'repetition') return null;
    const [s0, s1] = position.result!.score;
    return position.toMove === 0 ? s0 - s1 : s1 - s0;
  }
  let best = -Infinity;
  for (const move of legalMoves(state)) {
    const next = playFast(state, move);
    if (typeof next === 'string') throw new Error(next);
    const value = solve(next);
    if (value === null) return null;
    best = Math.max(best, -value);
  }
  return best;
}

/** Player 0's final margin when both sides play the engine's move at a fixed depth. */
function playOut(start: State, depth: number): number {
  let state = start;
  while (state.position.status === 'playing') {
    const next = playFast(state, bestMove(state, { depth }).move);
    if (typeof next === 'string') throw new Error(next);
    state = next;
  }
  const [s0, s1] = scorePosition(state.position, state.rules);
  return s0 - s1;
}

describe('bestMove', () => {
  it('plays only legal moves, and a principal variation the rules accept, at every level and budget', () => {
    const budget = fc.oneof(
      fc.record({ level: fc.constantFrom(...LEVELS.filter((l) => l <= 6)), seed: fc.nat() }),
      fc.record({ depth: fc.integer({ min: 1, max: 5 }) }),
      fc.record({ nodes: fc.integer({ min: 1, max: 3000 }) }),
    );
    fc.assert(
      fc.property(arbitraryGame, budget, (game, options) => {
        const state = playingStateOf(game);
        const result = bestMove(state, options);
        expect(isLegal(state, result.move)).toBe(true);
        expect(result.pv[0]).toEqual(result.move);
        let line = state;
        for (const move of result.pv) {
          const next = play(line, move);
          expect(next.ok).toBe(true);
          if (!next.ok) break;
          line = next.state;
          if (line.position.status !== 'playing') break;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('finds the capture chain of R9 E4 among distractions', () => {
    // E4's board with square 2 filled too: 3> still captures square 6
    // (quan + 4), 8 and 10 for 19 points; 3< takes 12, square 2 nothing.
    const state = study([2, 0, 1, 1, 0, 0, 4, 0, 3, 0, 2, 1]);
    for (const depth of [1, 2, 3, 4, 6]) {
      const result = bestMove(state, { depth });
      expect(result.move).toEqual({ square: 3, dir: 1 });
    }
    const after = play(state, { square: 3, dir: 1 });
    expect(after.ok && after.state.position.captured[0]).toEqual({ dan: 9, quan: 1 });
  });

  it('under quan non (R3.6) knows the chain of E4 captures nothing', () => {
    const state = study([2, 0, 1, 1, 0, 0, 4, 0, 3, 0, 2, 1], {}, { quanNon: 5 });
    const result = bestMove(state, { depth: 1 });
    expect(result.move).not.toEqual({ square: 3, dir: 1 });
  });

  it('plays endgames exactly: its value is the solved value and its move keeps it', () => {
    // Small boards a few plies before the ply limit, so the rules can solve
    // them to the end; lines ending by repetition are left out (the search
    // reads repetition its own way, see search.ts).
    const endgame = fc
      .record({
        rules: arbitraryRules,
        squares: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
        quan: fc.tuple(fc.boolean(), fc.boolean()),
        captured: fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })),
        toMove: fc.constantFrom<Player>(0, 1),
        left: fc.integer({ min: 1, max: 6 }),
      })
      .map(({ rules, squares, quan, captured, toMove, left }) => {
        const own = 6 * toMove + 1;
        if (squares.slice(own, own + 5).every((n) => n === 0)) squares[own] = 1;
        const plyLimit = Math.max(rules.plyLimit, left + 1);
        const state = study(
          squares,
          {
            quan,
            captured: [
              { dan: captured[0], quan: quan[0] ? 0 : 1 },
              { dan: captured[1], quan: quan[1] ? 0 : 1 },
            ],
            toMove,
            ply: plyLimit - left,
          },
          { ...rules, plyLimit },
        );
        return { state, left };
      });
    fc.assert(
      fc.property(endgame, ({ state, left }) => {
        const exact = solve(state);
        fc.pre(exact !== null);
        const result = bestMove(state, { depth: left });
        // `|| 0` folds −0 into 0: margins are compared as numbers.
        expect(result.eval || 0).toBe(exact || 0);
        const after = playFast(state, result.move);
        if (typeof after === 'string') throw new Error(after);
        const [s0, s1] = after.position.result?.score ?? [NaN, NaN];
        const moverView = state.position.toMove === 0 ? s0 - s1 : s1 - s0;
        expect((after.position.status === 'ended' ? moverView : -solve(after)!) || 0).toBe(exact || 0);
      }),
      { numRuns: 150 },
    );
  });

  it('plays on through a board that comes back when its cycle cannot come round again before the ply limit', () => {
    // Found by the property above: six plies from the limit, a line brings a board back with one
    // ply left. A search that ended the line there as a repetition valued the endgame at 8 for
    // player 1, where the rules, playing the last ply, solve it at 3.
    const state = study(
      [0, 0, 0, 3, 0, 1, 1, 1, 1, 0, 1, 0],
      { quan: [false, false], captured: [{ dan: 0, quan: 1 }, { dan: 4, quan: 1 }], toMove: 1, ply: 394 },
      { quanValue: 10, quanNon: 5, emptyQuanIsGap: true, endWhen: 'quan-squares-empty', skipOrigin: false, plyLimit: 400 },
    );
    expect(solve(state)).toBe(3);
    expect(bestMove(state, { depth: 6 }).eval).toBe(3);
  });

  it('wins a won endgame that a shallow search loses', () => {
    // Both quan pieces still on the board, ten plies before the limit: the
    // rules solve it as a win by 1 for player 0, and one- or two-ply play
    // loses it by 17 or more. Played out move by move, the engine wins it.
    const state = study([0, 1, 0, 0, 3, 3, 0, 3, 1, 0, 0, 0], { ply: 390 });
    expect(solve(state)).toBe(1);
    expect(bestMove(state, { depth: 10 }).eval).toBe(1);
    expect(playOut(state, 10)).toBe(1);
    expect(playOut(state, 2)).toBeLessThan(-10);
  });

  it('is deterministic with a seed and a depth or node budget', () => {
    const state = playFast(newGame(), { square: 2, dir: 1 }) as State;
    for (const options of [{ level: 1 as const, seed: 7 }, { level: 4 as const, seed: 3 }, { nodes: 5000 }, { depth: 5 }]) {
      const first = bestMove(state, options);
      const second = bestMove(state, options);
      expect(second).toEqual(first);
    }
  });

  it('lets the seed choose among moves at a low level, not at random: level 1 avoids a move that loses 19 points', () => {
    const start = newGame();
    const chosen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const { move } = bestMove(start, { level: 1, seed });
      chosen.add(`${move.square}${move.dir}`);
    }
    expect(chosen.size).toBeGreaterThan(1);

    const e4 = study([2, 0, 1, 1, 0, 0, 4, 0, 3, 0, 2, 1]);
    let chain = 0;
    for (let seed = 0; seed < 40; seed++) {
      if (bestMove(e4, { level: 1, seed }).move.square === 3) chain++;
    }
    expect(chain).toBeGreaterThan(30);
  });

  it('stops at a wall-clock deadline that has passed, still with a legal move from its shallowest iterations', () => {
    const state = playFast(newGame(), { square: 2, dir: 1 }) as State;
    const unhurried = bestMove(state, { level: 8, depth: 8 });
    expect(unhurried.depth).toBe(8);
    // A search that waited in a queue past the time its caller could wait.
    const late = bestMove(state, { level: 8, depth: 8, deadlineAt: Date.now() - 1 });
    expect(late.depth).toBeLessThanOrEqual(2);
    expect(late.nodes).toBeLessThan(unhurried.nodes);
    expect(isLegal(state, late.move)).toBe(true);
    // The deadline caps a level's time; it does not lift a depth limit.
    expect(bestMove(state, { level: 4, deadlineAt: Date.now() + 60_000, seed: 1 }).depth).toBe(2);
  });

  it('refuses an ended game', () => {
    const ended = study([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], { ply: 399 });
    const over = playFast(ended, { square: 5, dir: 1 });
    if (typeof over === 'string') throw new Error(over);
    expect(over.position.status).toBe('ended');
    expect(() => bestMove(over, { depth: 1 })).toThrow(RangeError);
  });
});
