// R2 Pieces and setup, R8 the position as plain JSON: the board, the quan
// pieces, both captured stocks and debts, the mover, the ply count and, once
// ended, the result (R5).

import type { Player } from './board.js';

/** R2.1: dân in play. */
export const TOTAL_DAN = 50;

/** R4.2–R4.5: why the rules ended a game. */
export type EndReason = 'quan-gone' | 'no-refill' | 'ply-limit' | 'repetition';

export const END_REASONS: readonly EndReason[] = Object.freeze([
  'quan-gone',
  'no-refill',
  'ply-limit',
  'repetition',
] as const);

export interface CapturedStock {
  readonly dan: number;
  /** Quan pieces captured (0–2). */
  readonly quan: number;
}

/** R5: scores and winner (null: draw). */
export interface GameResult {
  readonly reason: EndReason;
  readonly score: readonly [number, number];
  readonly winner: Player | null;
}

export type GameStatus = 'playing' | 'ended';

/**
 * R8, exactly: what `replay` returns and what travels on the wire. Values
 * are shared between consecutive positions where unchanged, so treat them as
 * immutable.
 */
export interface Position {
  /** Dân per square, ring index 0–11; quan pieces live in `quan`. */
  readonly squares: readonly number[];
  /** Whether the quan piece still stands on square 0 and on square 6. */
  readonly quan: readonly [boolean, boolean];
  readonly captured: readonly [CapturedStock, CapturedStock];
  /** R4.3: dân each player borrowed for a refill. */
  readonly debt: readonly [number, number];
  readonly toMove: Player;
  readonly ply: number;
  readonly status: GameStatus;
  readonly result: GameResult | null;
}

/** R2: five dân on each citizen square, a quan piece on each mandarin square. */
export function startPosition(first: Player = 0): Position {
  return {
    squares: [0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5],
    quan: [true, true],
    captured: [
      { dan: 0, quan: 0 },
      { dan: 0, quan: 0 },
    ],
    debt: [0, 0],
    toMove: first,
    ply: 0,
    status: 'playing',
    result: null,
  };
}

/** Total dân of a position: on the board and in both captured stocks. */
export function danInPlay(position: Position): number {
  let total = position.captured[0].dan + position.captured[1].dan;
  for (const n of position.squares) total += n;
  return total;
}

export type PositionValidation =
  | { readonly ok: true; readonly position: Position }
  | { readonly ok: false; readonly message: string };

/**
 * Checks an untrusted position and returns a normalized copy. Beyond the
 * R8 shape it checks that every quan piece is somewhere (R2.2), that no more
 * than the 50 dân of R2.1 are in play (study positions such as R9's E4 and
 * E5 hold fewer), that a running position gives the mover a move (R3.1) and
 * that a result's winner matches its score (R5.3).
 */
export function validatePosition(input: unknown): PositionValidation {
  const fail = (message: string): PositionValidation => ({ ok: false, message });
  if (!isObject(input)) return fail('position must be an object');
  const { squares, quan, captured, debt, toMove, ply, status, result } = input;

  if (!Array.isArray(squares) || squares.length !== 12 || !squares.every(isCount)) {
    return fail('squares must be 12 non-negative integers');
  }
  if (!Array.isArray(quan) || quan.length !== 2 || !quan.every((q) => typeof q === 'boolean')) {
    return fail('quan must be two booleans');
  }
  if (!Array.isArray(captured) || captured.length !== 2) {
    return fail('captured must hold two stocks');
  }
  const stocks: CapturedStock[] = [];
  for (const stock of captured as unknown[]) {
    if (!isObject(stock) || !isCount(stock.dan) || !isCount(stock.quan) || stock.quan > 2) {
      return fail('a captured stock must be { dan: integer ≥ 0, quan: 0..2 }');
    }
    stocks.push({ dan: stock.dan, quan: stock.quan });
  }
  const [stock0, stock1] = stocks as [CapturedStock, CapturedStock];
  const [quan0, quan1] = quan as [boolean, boolean];
  if (Number(quan0) + Number(quan1) + stock0.quan + stock1.quan !== 2) {
    return fail('the two quan pieces must be on the board or captured');
  }
  if (!Array.isArray(debt) || debt.length !== 2 || !debt.every(isCount)) {
    return fail('debt must be two non-negative integers');
  }
  if (toMove !== 0 && toMove !== 1) return fail('toMove must be 0 or 1');
  if (!isCount(ply)) return fail('ply must be a non-negative integer');

  const board = squares as number[];
  let total = stock0.dan + stock1.dan;
  for (const n of board) total += n;
  if (total > TOTAL_DAN) return fail(`at most ${TOTAL_DAN} dân can be in play`);

  let checkedResult: GameResult | null = null;
  if (status === 'playing') {
    if (result !== null) return fail('a running position has no result');
    const base = 6 * toMove;
    if (board.slice(base + 1, base + 6).every((n) => n === 0)) {
      return fail('the player to move has no dân to sow');
    }
  } else if (status === 'ended') {
    if (!isObject(result)) return fail('an ended position needs a result');
    const { reason, score, winner } = result;
    if (!(END_REASONS as readonly unknown[]).includes(reason)) return fail('unknown end reason');
    if (!Array.isArray(score) || score.length !== 2 || !score.every(Number.isSafeInteger)) {
      return fail('score must be two integers');
    }
    const [s0, s1] = score as [number, number];
    if (winner !== winnerOf(s0, s1)) return fail('winner does not match the score');
    checkedResult = { reason: reason as EndReason, score: [s0, s1], winner: winnerOf(s0, s1) };
  } else {
    return fail('status must be "playing" or "ended"');
  }

  return {
    ok: true,
    position: {
      squares: board.slice(),
      quan: [quan0, quan1],
      captured: [stock0, stock1],
      debt: [debt[0] as number, debt[1] as number],
      toMove,
      ply,
      status,
      result: checkedResult,
    },
  };
}

/** R5.3: the higher score wins; equal scores are a draw. */
export function winnerOf(score0: number, score1: number): Player | null {
  return score0 > score1 ? 0 : score1 > score0 ? 1 : null;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}
