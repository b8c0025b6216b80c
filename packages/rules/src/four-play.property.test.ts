// Properties of random four-player games (fast-check), free for all and in
// two teams, under both presets and random option sets: agreement with the
// plain reference model, a turn that always ends, the 100 dân conserved
// together with stocks and debts, R10.7 scores (140 at quan-gone with the
// default rules), R10.8 team scores, R8 refusals, no input mutation, and the
// conformance interface (R10.9).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seat } from './four-board.js';
import type { FourPlyEvent } from './four-events.js';
import { fourLegalMoves, fourPlay, fourPlayFast } from './four-play.js';
import { fourDanInPlay, type Four, type FourPosition } from './four-position.js';
import { resolveFourRules, type FourRuleOptions } from './four-rules.js';
import { fourScoreOf } from './four-scoring.js';
import { fourStateFromPosition, newFourGame, type FourState } from './four-state.js';
import { checkMove, type Move } from './moves.js';
import { replay } from './replay.js';
import { PRESETS } from './rule-options.js';
import { arbitraryOptions } from './testing/arbitrary-rules.js';
import { fourModelLegalMoves, fourModelPlay, fourModelResult, fourModelStart, type FourModelGame } from './testing/four-reference-model.js';

const RUNS = { numRuns: 100 };

const arbitraryFourRules: fc.Arbitrary<FourRuleOptions> = fc
  .record({
    base: fc.oneof(
      fc.constant(PRESETS.classic),
      fc.constant(PRESETS.vietnam),
      arbitraryOptions,
      // The R10.6 default limit of 800, not R6's 400.
      fc.constant({ ...PRESETS.classic, plyLimit: undefined }),
    ),
    teams: fc.boolean(),
  })
  .map(({ base, teams }) => resolveFourRules({ ...base, players: 4, ...(teams ? { teams: 2 as const } : {}) }));

const arbitraryGame = fc.record({
  rules: arbitraryFourRules,
  first: fc.constantFrom<Seat>(0, 1, 2, 3),
  choices: fc.array(fc.nat(), { maxLength: 300 }),
});

interface Played {
  states: FourState[];
  moves: Move[];
  events: (readonly FourPlyEvent[])[];
}

function playOut({ rules, first, choices }: { rules: FourRuleOptions; first: Seat; choices: number[] }): Played {
  let state = newFourGame({ rules, first });
  const played: Played = { states: [state], moves: [], events: [] };
  while (state.position.status === 'playing') {
    if (played.states.length > rules.plyLimit + 1) throw new Error('the game outlived its ply limit');
    const legal = fourLegalMoves(state);
    const move = legal[(choices[played.moves.length % Math.max(1, choices.length)] ?? 0) % legal.length]!;
    const result = fourPlay(state, move);
    if (!result.ok) throw new Error(`legal move refused: ${result.code}`);
    state = result.state;
    played.states.push(state);
    played.moves.push(move);
    played.events.push(result.events);
  }
  return played;
}

const plain = (position: FourPosition) => JSON.parse(JSON.stringify(position)) as FourPosition;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Every dân and quan piece accounted for: what the R10.7 scores would total if the game ended now. */
function expectAccounted(position: FourPosition, rules: FourRuleOptions, total: number) {
  expect(fourDanInPlay(position)).toBe(total);
  const s = position.squares;
  const mandarinDan = s[0]! + s[6]! + s[12]! + s[18]!;
  const quanOnBoard = position.quan.filter(Boolean).length;
  // Debts move points between players and cancel out in the sum.
  expect(sum(fourScoreOf(position, rules.quanValue)) + (mandarinDan % 4) + rules.quanValue * quanOnBoard).toBe(total + 4 * rules.quanValue);
}

describe('random four-player games', () => {
  it('agree ply by ply with the reference model', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        const { states, moves } = playOut(game);
        let model: FourModelGame = fourModelStart(plain(states[0]!.position));
        moves.forEach((move, i) => {
          expect(fourLegalMoves(states[i]!)).toEqual(fourModelLegalMoves(model.position));
          model = fourModelPlay(model, move, game.rules);
          expect(plain(states[i + 1]!.position)).toEqual(model.position);
        });
      }),
      RUNS,
    );
  });

  it('end every turn, and end within plyLimit plies, scored and ranked as R10.7 and R10.8 say', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        const { states, events } = playOut(game);
        // R3.7: every turn ended (the guard would have thrown), sowing less than 26 laps of 24.
        for (const ply of events) expect(ply.filter((e) => e.type === 'drop').length).toBeLessThan(24 * 26);
        const last = states.at(-1)!.position;
        expect(last.ply).toBe(states.length - 1);
        expect(last.ply).toBeLessThanOrEqual(game.rules.plyLimit);
        const result = last.result!;
        expect(result).toEqual(fourModelResult(last, game.rules, result.reason));
        expect(events.at(-1)!.at(-1)).toEqual({ type: 'end', result });
        if (result.reason === 'quan-gone' && game.rules.endWhen === 'quan-squares-empty') {
          expect(sum(result.score)).toBe(100 + 4 * game.rules.quanValue);
          if (game.rules.quanValue === 10) expect(sum(result.score)).toBe(140);
        }
        if (game.rules.teams === 2) {
          expect(result.teamScore).toEqual([result.score[0] + result.score[2], result.score[1] + result.score[3]]);
        } else {
          expect(result).not.toHaveProperty('teamScore');
        }
        if (result.reason === 'ply-limit') expect(last.ply).toBe(game.rules.plyLimit);
        states.slice(0, -1).forEach((state) => expect(state.position.status).toBe('playing'));
      }),
      RUNS,
    );
  });

  it('conserve the 100 dân with stocks and debts, debts growing only by the loans of refills', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        const { states, events } = playOut(game);
        states.forEach((state, i) => {
          expectAccounted(state.position, game.rules, 100);
          if (i === 0) return;
          const before = states[i - 1]!.position.debt;
          const after = state.position.debt;
          const loans = events[i - 1]!.flatMap((e) => (e.type === 'refill' ? e.loans.map((loan) => ({ ...loan, to: e.player })) : []));
          for (let p = 0; p < 4; p++) {
            for (let q = 0; q < 4; q++) {
              const lent = sum(loans.filter((loan) => loan.to === p && loan.from === q).map((loan) => loan.dan));
              expect(after[p]![q]).toBe(before[p]![q]! + lent);
            }
          }
        });
      }),
      RUNS,
    );
  });

  it('replay (R10.9) gives the same positions; play does not mutate its input and is deterministic', () => {
    fc.assert(
      fc.property(arbitraryGame, fc.nat(), (game, pick) => {
        const { states, moves } = playOut(game);
        const replayed = replay({ rules: game.rules, first: game.first }, moves);
        expect(replayed).toEqual({ ok: true, positions: states.map((s) => s.position) });
        const i = pick % moves.length;
        const before = structuredClone(states[i]!.position);
        const first = fourPlay(states[i]!, moves[i]!);
        const second = fourPlay(states[i]!, moves[i]!);
        expect(states[i]!.position).toEqual(before);
        expect(second).toEqual(first);
      }),
      RUNS,
    );
  });

  it('refuse illegal moves with R8’s codes, in R8’s order, changing nothing', () => {
    const all: Move[] = Array.from({ length: 26 }, (_, i) => i - 1).flatMap((square) => [
      { square, dir: 1 as const },
      { square, dir: -1 as const },
    ]);
    fc.assert(
      fc.property(arbitraryGame, fc.nat(), (game, pick) => {
        const { states } = playOut(game);
        const state = states[pick % states.length]!;
        const p = state.position;
        const legal = new Set(fourLegalMoves(state));
        for (const move of all) {
          const own = move.square >= 6 * p.toMove + 1 && move.square <= 6 * p.toMove + 5;
          const expected =
            p.status === 'ended'
              ? 'ERR_GAME_OVER'
              : move.square < 0 || move.square > 23
                ? 'ERR_BAD_MOVE'
                : !own
                  ? 'ERR_NOT_YOUR_SQUARE'
                  : p.squares[move.square] === 0
                    ? 'ERR_EMPTY_SQUARE'
                    : null;
          expect(checkMove(p, move)).toBe(expected);
          expect(legal.has(move) || [...legal].some((m) => m.square === move.square && m.dir === move.dir)).toBe(expected === null);
          if (expected !== null) expect(fourPlayFast(state, move)).toBe(expected);
        }
      }),
      { numRuns: 50 },
    );
  });
});

/**
 * Sparse random positions reach what games from the start rarely do:
 * refills with loans from several lenders, no-refill endings, repetition.
 */
const arbitraryPosition: fc.Arbitrary<FourPosition> = fc
  .record({
    stones: fc.array(fc.integer({ min: 0, max: 27 }), { minLength: 100, maxLength: 100 }),
    board: fc.integer({ min: 1, max: 100 }),
    quan: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    quanOwners: fc.array(fc.constantFrom<Seat>(0, 1, 2, 3), { minLength: 4, maxLength: 4 }),
    debt: fc.array(fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 4, maxLength: 4 }), { minLength: 4, maxLength: 4 }),
    toMove: fc.constantFrom<Seat>(0, 1, 2, 3),
  })
  .map(({ stones, board, quan, quanOwners, debt, toMove }) => {
    // The first `board` stones go on the board at their drawn square; the others to the stock of player (square & 3).
    const squares = Array<number>(24).fill(0);
    const dan = [0, 0, 0, 0];
    stones.forEach((square, i) => {
      if (i < board && square < 24) squares[square]!++;
      else dan[square & 3]!++;
    });
    const row = 6 * toMove + 1;
    if (squares.slice(row, row + 5).every((n) => n === 0)) {
      const donor = dan.findIndex((n) => n > 0);
      if (donor >= 0) dan[donor]!--;
      else squares[squares.findIndex((n) => n > 0)]!--;
      squares[row + (board % 5)]!++;
    }
    const capturedQuan = [0, 0, 0, 0];
    quan.forEach((standing, i) => {
      if (!standing) capturedQuan[quanOwners[i]!]!++;
    });
    return {
      squares,
      quan: quan as unknown as Four<boolean>,
      captured: dan.map((d, p) => ({ dan: d, quan: capturedQuan[p]! })) as unknown as FourPosition['captured'],
      debt: debt.map((r, p) => r.map((n, q) => (p === q ? 0 : n))) as unknown as FourPosition['debt'],
      toMove,
      ply: 0,
      status: 'playing' as const,
      result: null,
    };
  });

describe('random four-player positions', () => {
  it('play on ply by ply as the reference model does, conserving the dân', () => {
    fc.assert(
      fc.property(arbitraryPosition, arbitraryFourRules, fc.array(fc.nat(), { maxLength: 300 }), (start, rules, choices) => {
        let state = fourStateFromPosition(start, rules);
        let model = fourModelStart(plain(state.position));
        for (let i = 0; state.position.status === 'playing'; i++) {
          expect(i).toBeLessThanOrEqual(rules.plyLimit);
          const legal = fourLegalMoves(state);
          expect(legal).toEqual(fourModelLegalMoves(model.position));
          const move = legal[(choices[i % Math.max(1, choices.length)] ?? 0) % legal.length]!;
          state = fourPlayFast(state, move) as FourState;
          model = fourModelPlay(model, move, rules);
          expect(plain(state.position)).toEqual(model.position);
          expectAccounted(state.position, rules, 100);
        }
      }),
      RUNS,
    );
  });
});
