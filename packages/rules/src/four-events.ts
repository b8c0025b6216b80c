// R10.6, R10.7: the events of a four-player ply. The turn's own events
// (pickup, drop, relay, capture) are those of R3; the refill names each
// lender, and the end carries four scores and the ranking.

import type { Seat } from './four-board.js';
import type { FourResult } from './four-position.js';
import type { TurnEvent } from './events.js';

/** R10.6: one loan of a refill, recorded as a debt of the new mover to `from`. */
export interface Loan {
  readonly from: Seat;
  readonly dan: number;
}

/** R10.6: the new mover's empty row gets one dân per square, in ascending index order. */
export interface FourRefillEvent {
  readonly type: 'refill';
  readonly player: Seat;
  readonly squares: readonly number[];
  /** Dân paid from the player's own captured stock. */
  readonly own: number;
  /** Dân borrowed in all, and from whom, in the order they were borrowed. */
  readonly borrowed: number;
  readonly loans: readonly Loan[];
}

/** R10.6, R10.7: the game is over for all four. */
export interface FourEndEvent {
  readonly type: 'end';
  readonly result: FourResult;
}

export type FourPlyEvent = TurnEvent | FourRefillEvent | FourEndEvent;
