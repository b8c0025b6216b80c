// R10.3, R10.7, R10.9: the four-player position as plain JSON: 24 squares,
// four quan flags (`quan[i]` for mandarin square 6i), four captured stocks,
// debts as a 4 × 4 table (`debt[p][q]`: what p owes q), the mover 0–3, the
// ply count and, once ended, the result with scores and ranking (and team
// scores with teams).

import { FOUR_TOTAL_DAN, type Seat } from './four-board.js';
import type { CapturedStock, EndReason, GameStatus } from './position.js';

export type Four<T> = readonly [T, T, T, T];

/** R10.7, R10.8, R10.9. */
export interface FourResult {
  readonly reason: EndReason;
  readonly score: Four<number>;
  /** `ranking[p]`: p's place, 1 the best; equal scores share a place (1, 2, 2, 4). */
  readonly ranking: Four<number>;
  /** The player placed 1 alone, or null. */
  readonly winner: Seat | null;
  /** With teams only: [s0 + s2, s1 + s3]. */
  readonly teamScore?: readonly [number, number];
  /** With teams only: the team with the higher team score, null when equal. */
  readonly winningTeam?: 0 | 1 | null;
}

/** R10.9, exactly; unchanged parts are shared between consecutive positions, so treat them as immutable. */
export interface FourPosition {
  readonly squares: readonly number[];
  readonly quan: Four<boolean>;
  readonly captured: Four<CapturedStock>;
  readonly debt: Four<Four<number>>;
  readonly toMove: Seat;
  readonly ply: number;
  readonly status: GameStatus;
  readonly result: FourResult | null;
}

const NO_DEBT: Four<Four<number>> = [
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
  [0, 0, 0, 0],
];

/** R10.3: five dân on each citizen square, a quan piece on each mandarin square. */
export function fourStartPosition(first: Seat = 0): FourPosition {
  return {
    squares: Array.from({ length: 24 }, (_, i) => (i % 6 === 0 ? 0 : 5)),
    quan: [true, true, true, true],
    captured: [
      { dan: 0, quan: 0 },
      { dan: 0, quan: 0 },
      { dan: 0, quan: 0 },
      { dan: 0, quan: 0 },
    ],
    debt: NO_DEBT,
    toMove: first,
    ply: 0,
    status: 'playing',
    result: null,
  };
}

/** Total dân of a position: on the board and in the four captured stocks. */
export function fourDanInPlay(position: Pick<FourPosition, 'squares' | 'captured'>): number {
  let total = 0;
  for (const stock of position.captured) total += stock.dan;
  for (const n of position.squares) total += n;
  return total;
}

export type FourPositionValidation =
  | { readonly ok: true; readonly position: FourPosition }
  | { readonly ok: false; readonly message: string };

/**
 * Checks an untrusted running four-player position (for studies and tests)
 * and returns a normalized copy: the R10.9 shape, every quan piece
 * somewhere, no more than the 100 dân of R10.3, and a move for the mover.
 * Ended positions come only from play, so none is accepted here.
 */
export function validateFourPosition(input: unknown): FourPositionValidation {
  const fail = (message: string): FourPositionValidation => ({ ok: false, message });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('position must be an object');
  const { squares, quan, captured, debt, toMove, ply, status, result } = input as Record<string, unknown>;
  if (!Array.isArray(squares) || squares.length !== 24 || !squares.every(isCount)) {
    return fail('squares must be 24 non-negative integers');
  }
  if (!Array.isArray(quan) || quan.length !== 4 || !quan.every((q) => typeof q === 'boolean')) {
    return fail('quan must be four booleans');
  }
  if (!Array.isArray(captured) || captured.length !== 4) return fail('captured must hold four stocks');
  const stocks: CapturedStock[] = [];
  for (const stock of captured as unknown[]) {
    const s = stock as Record<string, unknown> | null;
    if (typeof s !== 'object' || s === null || !isCount(s.dan) || !isCount(s.quan) || s.quan > 4) {
      return fail('a captured stock must be { dan: integer ≥ 0, quan: 0..4 }');
    }
    stocks.push({ dan: s.dan, quan: s.quan });
  }
  const onBoard = (quan as boolean[]).filter(Boolean).length;
  if (onBoard + stocks.reduce((n, s) => n + s.quan, 0) !== 4) {
    return fail('the four quan pieces must be on the board or captured');
  }
  if (!Array.isArray(debt) || debt.length !== 4 || !debt.every((row) => Array.isArray(row) && row.length === 4 && row.every(isCount))) {
    return fail('debt must be a 4 × 4 table of non-negative integers');
  }
  if ((debt as number[][]).some((row, p) => row[p] !== 0)) return fail('nobody owes themselves');
  if (toMove !== 0 && toMove !== 1 && toMove !== 2 && toMove !== 3) return fail('toMove must be 0 to 3');
  if (!isCount(ply)) return fail('ply must be a non-negative integer');
  if (status !== 'playing' || result !== null) return fail('only a running position (status "playing", no result) is accepted');
  const board = squares as number[];
  if (board.reduce((a, b) => a + b, 0) + stocks.reduce((n, s) => n + s.dan, 0) > FOUR_TOTAL_DAN) {
    return fail(`at most ${FOUR_TOTAL_DAN} dân can be in play`);
  }
  if (board.slice(6 * toMove + 1, 6 * toMove + 6).every((n) => n === 0)) return fail('the player to move has no dân to sow');
  return {
    ok: true,
    position: {
      squares: board.slice(),
      quan: quan.slice() as unknown as Four<boolean>,
      captured: stocks as unknown as Four<CapturedStock>,
      debt: (debt as number[][]).map((row) => row.slice()) as unknown as Four<Four<number>>,
      toMove,
      ply,
      status,
      result: null,
    },
  };
}


function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}
