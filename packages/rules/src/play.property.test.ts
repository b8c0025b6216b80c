// Properties over random games (fast-check), for both presets and random
// option sets: agreement with the plain reference model, conservation of the
// 50 dân (R2.1), R5 scores, termination within plyLimit (R4.4), no input
// mutation, a legal move in every running position (R3.1, R4.3), illegal
// moves refused with the right code (R8), and branching from earlier states.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Player } from './board.js';
import { checkMove, type Move, type PlayErrorCode } from './moves.js';
import { legalMoves, play, playFast } from './play.js';
import { danInPlay, type Position } from './position.js';
import type { RuleOptions } from './rule-options.js';
import { newGame, stateFromPosition, type State } from './state.js';
import { arbitraryRules } from './testing/arbitrary-rules.js';
import { modelLegalMoves, modelPlay, modelScore, modelStart, type ModelGame } from './testing/reference-model.js';

const RUNS = { numRuns: 200 };

/** A random game: its rules, first player, and one choice per ply (index into the legal moves). */
const arbitraryGame = fc.record({
  rules: arbitraryRules,
  first: fc.constantFrom<Player>(0, 1),
  choices: fc.array(fc.nat(), { maxLength: 400 }),
});

interface Played {
  states: State[];
  moves: Move[];
}

/** Plays the game to its end; choices beyond the array repeat it (or take the first move). */
function playOut({ rules, first, choices }: { rules: RuleOptions; first: Player; choices: number[] }): Played {
  let state = newGame({ rules, first });
  const states = [state];
  const moves: Move[] = [];
  while (state.position.status === 'playing') {
    if (states.length > rules.plyLimit + 1) throw new Error('the game outlived its ply limit');
    const legal = legalMoves(state);
    const move = legal[(choices[moves.length % Math.max(1, choices.length)] ?? 0) % legal.length]!;
    const result = play(state, move);
    if (!result.ok) throw new Error(`legal move refused: ${result.code}`);
    state = result.state;
    states.push(state);
    moves.push(move);
  }
  return { states, moves };
}

const ALL_MOVES: Move[] = Array.from({ length: 12 }, (_, square) => [
  { square, dir: 1 as const },
  { square, dir: -1 as const },
]).flat();

const plain = (position: Position) => JSON.parse(JSON.stringify(position)) as Position;

describe('random games', () => {
  it('agree ply by ply with the reference model', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        const { states, moves } = playOut(game);
        let model: ModelGame = modelStart(plain(states[0]!.position));
        moves.forEach((move, i) => {
          model = modelPlay(model, move, game.rules);
          expect(plain(states[i + 1]!.position)).toEqual(model.position);
        });
      }),
      RUNS,
    );
  });

  it('conserve the 50 dân at every ply', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        for (const state of playOut(game).states) expect(danInPlay(state.position)).toBe(50);
      }),
      RUNS,
    );
  });

  it('end within plyLimit plies, scored as R5 says', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        const { states } = playOut(game);
        const last = states.at(-1)!.position;
        expect(last.status).toBe('ended');
        expect(last.ply).toBeLessThanOrEqual(game.rules.plyLimit);
        expect(last.ply).toBe(states.length - 1);
        const result = last.result!;
        expect(result.score).toEqual(modelScore(last, game.rules));
        const [s0, s1] = result.score;
        expect(result.winner).toBe(s0 > s1 ? 0 : s1 > s0 ? 1 : null);
        if (result.reason === 'quan-gone' && game.rules.endWhen === 'quan-squares-empty') {
          // R5.3: every dân and both quan pieces are accounted for.
          expect(s0 + s1).toBe(50 + 2 * game.rules.quanValue);
          if (game.rules.quanValue === 10) expect(s0 + s1).toBe(70);
        }
        if (result.reason === 'ply-limit') expect(last.ply).toBe(game.rules.plyLimit);
        states.slice(0, -1).forEach((state) => expect(state.position.status).toBe('playing'));
      }),
      RUNS,
    );
  });

  it('always leave the mover a legal move while running, and list exactly the legal ones', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        for (const state of playOut(game).states) {
          const listed = legalMoves(state);
          if (state.position.status === 'playing') expect(listed.length).toBeGreaterThan(0);
          expect(listed).toEqual(modelLegalMoves(state.position));
          const accepted = ALL_MOVES.filter((move) => checkMove(state.position, move) === null);
          expect(new Set(accepted.map((m) => `${m.square}${m.dir}`))).toEqual(new Set(listed.map((m) => `${m.square}${m.dir}`)));
        }
      }),
      RUNS,
    );
  });

  it('never mutate their inputs, and play is deterministic', () => {
    fc.assert(
      fc.property(arbitraryGame, fc.nat(), (game, pick) => {
        const { states, moves } = playOut(game);
        const i = pick % moves.length;
        const state = states[i]!;
        const move = { ...moves[i]! };
        const before = structuredClone(state.position);
        const rules = { ...state.rules };
        const historyBefore = { length: state.history.length, count: state.history.count };
        deepFreeze(state.position);
        deepFreeze(move);
        const first = play(state, move);
        const second = play(state, move);
        expect(state.position).toEqual(before);
        expect(state.rules).toEqual(rules);
        expect({ length: state.history.length, count: state.history.count }).toEqual(historyBefore);
        expect(move).toEqual(moves[i]);
        expect(second).toEqual(first);
        expect(first.ok && first.state.position).toEqual(states[i + 1]!.position);
      }),
      RUNS,
    );
  });
});

const arbitraryMoveLike: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ square: fc.integer({ min: -2, max: 13 }), dir: fc.constantFrom(1, -1) }),
  fc.record({ square: fc.integer({ min: 0, max: 11 }), dir: fc.constantFrom<unknown>(0, 2, '1', null, 1.5, -1, 1) }),
  fc.record({ square: fc.constantFrom<unknown>(1.5, '3', null, undefined, NaN, Infinity), dir: fc.constantFrom(1, -1) }),
  fc.anything(),
);

/** R8's codes, in the order `checkMove` documents, straight from the rules. */
function expectedCode(position: Position, move: unknown): PlayErrorCode | null {
  if (position.status === 'ended') return 'ERR_GAME_OVER';
  if (typeof move !== 'object' || move === null) return 'ERR_BAD_MOVE';
  const { square, dir } = move as Record<string, unknown>;
  if (!Number.isInteger(square) || (square as number) < 0 || (square as number) > 11) return 'ERR_BAD_MOVE';
  if (dir !== 1 && dir !== -1) return 'ERR_BAD_MOVE';
  const k = (square as number) - 6 * position.toMove;
  if (k < 1 || k > 5) return 'ERR_NOT_YOUR_SQUARE';
  if (position.squares[square as number] === 0) return 'ERR_EMPTY_SQUARE';
  return null;
}

/**
 * Sparse random positions reach what random games from the start rarely
 * do: refills with debts, no-refill endings, shuttling stones and repetition.
 */
const arbitraryPosition: fc.Arbitrary<Position> = fc
  .record({
    stones: fc.array(fc.integer({ min: 0, max: 13 }), { minLength: 50, maxLength: 50 }),
    board: fc.integer({ min: 1, max: 50 }),
    quan: fc.constantFrom<[boolean, boolean]>([true, true], [true, false], [false, true], [false, false]),
    quanOwners: fc.tuple(fc.constantFrom<Player>(0, 1), fc.constantFrom<Player>(0, 1)),
    debt: fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 })),
    toMove: fc.constantFrom<Player>(0, 1),
  })
  .map(({ stones, board, quan, quanOwners, debt, toMove }) => {
    // The first `board` stones go on the board at their drawn square; the
    // others to the stock of player (square & 1).
    const squares = Array<number>(12).fill(0);
    const dan = [0, 0];
    stones.forEach((square, i) => {
      if (i < board && square < 12) squares[square]!++;
      else dan[square & 1]!++;
    });
    const row = 6 * toMove + 1;
    if (squares.slice(row, row + 5).every((n) => n === 0)) {
      if (dan[0]! > 0) dan[0]!--;
      else if (dan[1]! > 0) dan[1]!--;
      else squares[squares.findIndex((n) => n > 0)]!--;
      squares[row + (board % 5)]!++;
    }
    const capturedQuan = [0, 0];
    if (!quan[0]) capturedQuan[quanOwners[0]]!++;
    if (!quan[1]) capturedQuan[quanOwners[1]]!++;
    return {
      squares,
      quan,
      captured: [
        { dan: dan[0]!, quan: capturedQuan[0]! },
        { dan: dan[1]!, quan: capturedQuan[1]! },
      ],
      debt,
      toMove,
      ply: 0,
      status: 'playing',
      result: null,
    } satisfies Position;
  });

describe('random positions', () => {
  it('play on ply by ply as the reference model does, conserving the dân', () => {
    fc.assert(
      fc.property(arbitraryPosition, arbitraryRules, fc.array(fc.nat(), { maxLength: 300 }), (start, rules, choices) => {
        let state = stateFromPosition(start, rules);
        let model = modelStart(plain(state.position));
        for (let i = 0; state.position.status === 'playing'; i++) {
          expect(i).toBeLessThanOrEqual(rules.plyLimit);
          const legal = legalMoves(state);
          expect(legal).toEqual(modelLegalMoves(model.position));
          const move = legal[(choices[i % Math.max(1, choices.length)] ?? 0) % legal.length]!;
          state = playFast(state, move) as State;
          model = modelPlay(model, move, rules);
          expect(plain(state.position)).toEqual(model.position);
          expect(danInPlay(state.position)).toBe(50);
        }
      }),
      RUNS,
    );
  });
});

describe('illegal moves', () => {
  it('are refused with the right code and change nothing', () => {
    fc.assert(
      fc.property(arbitraryGame, fc.nat(), arbitraryMoveLike, (game, pick, move) => {
        const { states } = playOut(game);
        const state = states[pick % states.length]!;
        const before = structuredClone(state.position);
        const code = expectedCode(state.position, move);
        const result = play(state, move as Move);
        if (code === null) {
          expect(result.ok).toBe(true);
        } else {
          expect(result).toEqual({ ok: false, code });
          expect(playFast(state, move as Move)).toBe(code);
        }
        expect(state.position).toEqual(before);
        // The game goes on from the same state exactly as before.
        const i = states.indexOf(state);
        if (i + 1 < states.length) {
          const legal = legalMoves(state);
          const again = legal.map((m) => playFast(state, m)).filter((next): next is State => typeof next !== 'string');
          expect(again.some((next) => JSON.stringify(next.position) === JSON.stringify(states[i + 1]!.position))).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe('branches', () => {
  it('played from an earlier state count repetitions of their own line only', () => {
    fc.assert(
      fc.property(arbitraryGame, fc.nat(), fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (game, pick, other) => {
        const { states, moves } = playOut(game);
        const at = pick % states.length;
        let state = states[at]!;
        let model = modelStart(plain(states[0]!.position));
        for (const move of moves.slice(0, at)) model = modelPlay(model, move, game.rules);
        for (let i = 0; state.position.status === 'playing' && i < other.length; i++) {
          const legal = legalMoves(state);
          const move = legal[other[i]! % legal.length]!;
          state = playFast(state, move) as State;
          model = modelPlay(model, move, game.rules);
          expect(plain(state.position)).toEqual(model.position);
        }
      }),
      RUNS,
    );
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
