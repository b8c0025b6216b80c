// R10.2 The four-player board: a ring of 24 squares, mandarin squares 0, 6,
// 12 and 18 at the corners, player p's citizen squares 6p + 1 … 6p + 5
// (one side each), +1 toward every player's right.

import { makeRing, type Ring } from './ring.js';

/** A player of the four-player game; players 0–3 sit on the bottom, right, top and left sides. */
export type Seat = 0 | 1 | 2 | 3;

export const FOUR_SQUARE_COUNT = 24;

/** R10.3: five dân on each of the 20 citizen squares. */
export const FOUR_TOTAL_DAN = 100;

/** R10.4: the ring a four-player turn walks. */
export const RING_24: Ring = makeRing(FOUR_SQUARE_COUNT, FOUR_TOTAL_DAN);

/** R10.2: the owner of a square of the ring of 24; mandarin squares belong to nobody. */
export function fourOwnerOf(square: number): Seat | null {
  if (!Number.isInteger(square) || square < 0 || square >= FOUR_SQUARE_COUNT || square % 6 === 0) return null;
  return Math.floor(square / 6) as Seat;
}

/** R10.5: the player who moves after `p`, the one to p's right. */
export function nextSeat(p: Seat): Seat {
  return ((p + 1) & 3) as Seat;
}

export const SEATS: readonly Seat[] = Object.freeze([0, 1, 2, 3] as const);
