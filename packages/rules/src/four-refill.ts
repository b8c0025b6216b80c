// R10.6, R10.8 The refill with four players: a new mover whose row is empty
// puts one dân on each of their squares, paid from their own captured dân
// first, then borrowed from the others in a fixed order, each loan a debt
// to its lender.

import { nextSeat, type Seat } from './four-board.js';
import type { Loan } from './four-events.js';
import type { CapturedStock } from './position.js';

/**
 * R10.6: free for all, the next players in turn order (p + 1, p + 2, p + 3);
 * R10.8: with teams, the partner (p + 2) first, then the opponents in turn
 * order from the mover (p + 1, then p + 3).
 */
export function lendersOf(p: Seat, teams: boolean): readonly [Seat, Seat, Seat] {
  const right = nextSeat(p);
  const across = nextSeat(right);
  const left = nextSeat(across);
  return teams ? [across, right, left] : [right, across, left];
}

export interface FourRefill {
  /** Dân the mover paid from their own stock. */
  readonly own: number;
  readonly loans: readonly Loan[];
  /** own + every loan: the squares filled, at most 5. */
  readonly paid: number;
}

/**
 * What a refill of `mover`'s row costs whom (R4.3's order: own stock, then
 * loans; at most 5 dân in all). Only the amounts: the caller applies them.
 */
export function planRefill(captured: readonly CapturedStock[], mover: Seat, teams: boolean): FourRefill {
  const own = Math.min(captured[mover]!.dan, 5);
  let paid = own;
  const loans: Loan[] = [];
  for (const lender of lendersOf(mover, teams)) {
    const dan = Math.min(captured[lender]!.dan, 5 - paid);
    if (dan > 0) {
      loans.push({ from: lender, dan });
      paid += dan;
    }
  }
  return { own, loans, paid };
}
