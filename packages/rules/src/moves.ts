// R3.1 The move: one of the mover's own non-empty citizen squares and a
// direction, on the ring of 12 (R1) or of 24 (R10.4). Also the error codes of
// R8 for a move that is not legal.

import type { Direction } from './board.js';
import type { Seat } from './four-board.js';

export interface Move {
  /** Ring index 0–11 (R1.1), or 0–23 with four players (R10.2). */
  readonly square: number;
  readonly dir: Direction;
}

export const ERR_GAME_OVER = 'ERR_GAME_OVER';
export const ERR_BAD_MOVE = 'ERR_BAD_MOVE';
export const ERR_NOT_YOUR_SQUARE = 'ERR_NOT_YOUR_SQUARE';
export const ERR_EMPTY_SQUARE = 'ERR_EMPTY_SQUARE';

export type PlayErrorCode =
  | typeof ERR_GAME_OVER
  | typeof ERR_BAD_MOVE
  | typeof ERR_NOT_YOUR_SQUARE
  | typeof ERR_EMPTY_SQUARE;

export const PLAY_ERROR_CODES: readonly PlayErrorCode[] = Object.freeze([
  ERR_GAME_OVER,
  ERR_BAD_MOVE,
  ERR_NOT_YOUR_SQUARE,
  ERR_EMPTY_SQUARE,
]);

/** What the move checks read of a position, two-player (R8) or four-player (R10.9). */
export interface MoverView {
  readonly squares: readonly number[];
  readonly toMove: Seat;
  readonly status: 'playing' | 'ended';
}

/**
 * One shared, frozen move per square of the larger ring and direction.
 * Indexed by `2 * square + (dir === 1 ? 0 : 1)`.
 */
const MOVES: readonly Move[] = Object.freeze(
  Array.from({ length: 48 }, (_, i) => Object.freeze({ square: i >> 1, dir: (i & 1) === 0 ? 1 : -1 } as const)),
);

/** The canonical (shared, frozen) move object for a square and direction. */
export function moveOf(square: number, dir: Direction): Move {
  const move = MOVES[2 * square + (dir === 1 ? 0 : 1)];
  if (move === undefined) throw new RangeError(`no square ${square}`);
  return move;
}

const NO_MOVES: readonly Move[] = Object.freeze([]);

/**
 * The legal moves depend only on the mover and on which of their five
 * squares hold dân, so all 128 lists (four movers) are made once and shared:
 * listing moves allocates nothing. Indexed by `32 * mover + mask`, bit k−1
 * of the mask set when the mover's k-th square holds dân.
 */
const LEGAL_MOVES: readonly (readonly Move[])[] = Object.freeze(
  Array.from({ length: 128 }, (_, i) => {
    const first = 6 * (i >> 5) + 1;
    const moves: Move[] = [];
    for (let k = 0; k < 5; k++) {
      if ((i & (1 << k)) !== 0) moves.push(MOVES[2 * (first + k)]!, MOVES[2 * (first + k) + 1]!);
    }
    return Object.freeze(moves);
  }),
);

/** R3.1: every legal move, by ascending square, `+1` before `−1`. */
export function legalMovesOf(position: MoverView): readonly Move[] {
  if (position.status !== 'playing') return NO_MOVES;
  const s = position.squares;
  const first = 6 * position.toMove + 1;
  const mask =
    (s[first] !== 0 ? 1 : 0) |
    (s[first + 1] !== 0 ? 2 : 0) |
    (s[first + 2] !== 0 ? 4 : 0) |
    (s[first + 3] !== 0 ? 8 : 0) |
    (s[first + 4] !== 0 ? 16 : 0);
  return LEGAL_MOVES[32 * position.toMove + mask]!;
}

/**
 * Why a move cannot be played, or null if it can. The checks run in a fixed
 * order: the game is over, the move is malformed, the square is not the
 * mover's (mandarin squares included, R3.1), the square is empty. The move
 * is untrusted, so any value is accepted.
 */
export function checkMove(position: MoverView, move: unknown): PlayErrorCode | null {
  if (position.status !== 'playing') return ERR_GAME_OVER;
  if (typeof move !== 'object' || move === null) return ERR_BAD_MOVE;
  const { square, dir } = move as { square?: unknown; dir?: unknown };
  // A square off the board (12 or more on the ring of 12) is malformed.
  if (typeof square !== 'number' || !Number.isInteger(square) || square < 0 || square >= position.squares.length) {
    return ERR_BAD_MOVE;
  }
  if (dir !== 1 && dir !== -1) return ERR_BAD_MOVE;
  const first = 6 * position.toMove + 1;
  if (square < first || square >= first + 5) return ERR_NOT_YOUR_SQUARE;
  if (position.squares[square] === 0) return ERR_EMPTY_SQUARE;
  return null;
}
