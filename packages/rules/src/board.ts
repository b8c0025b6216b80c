// R1 Board: the ring of twelve squares, the two mandarin squares, which
// citizen squares belong to whom (R1.1, R1.4) and the two directions (R1.3).

import { makeRing, type Ring } from './ring.js';

export type Player = 0 | 1;

/** R1.3: +1 walks 0→1→…→11→0, −1 the other way; for both players +1 is "toward my right". */
export type Direction = 1 | -1;

export const SQUARE_COUNT = 12;

/** R1.1: the two mandarin squares (ô quan). */
export const MANDARIN_SQUARES: readonly [0, 6] = [0, 6];

export function isMandarin(square: number): boolean {
  return square === 0 || square === 6;
}

/** R1.1: the owner of a citizen square; mandarin squares belong to nobody. */
export function ownerOf(square: number): Player | null {
  if (square >= 1 && square <= 5) return 0;
  if (square >= 7 && square <= 11) return 1;
  return null;
}

/** R1.4: player `p`'s k-th square counted from their own left (k = 1..5). */
export function squareOf(player: Player, k: number): number {
  return 6 * player + k;
}

/** Where a mandarin square's quan piece is recorded in `Position.quan`: square 0 → 0, square 6 → 1. */
export function mandarinIndex(square: number): 0 | 1 | null {
  if (square === 0) return 0;
  if (square === 6) return 1;
  return null;
}

export function citizenSquares(player: Player): readonly number[] {
  return player === 0 ? PLAYER0_SQUARES : PLAYER1_SQUARES;
}

const PLAYER0_SQUARES: readonly number[] = Object.freeze([1, 2, 3, 4, 5]);
const PLAYER1_SQUARES: readonly number[] = Object.freeze([7, 8, 9, 10, 11]);

/** R1: the ring of twelve squares that turns (R3) walk. */
export const RING_12: Ring = makeRing(SQUARE_COUNT, 50);

export function step(square: number, dir: Direction): number {
  return (square + dir + SQUARE_COUNT) % SQUARE_COUNT;
}
