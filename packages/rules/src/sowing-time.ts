// R3–R5 as they are shown: how long a ply's events take to watch, and the
// sowing allowance a timed game grants the next mover before their clock runs.

import type { PlyEvent } from './events.js';

/** Milliseconds each kind of event takes to show at the default speed (a stone dropped is one event). */
export const EVENT_MS: Readonly<Record<PlyEvent['type'], number>> = {
  pickup: 320,
  drop: 170,
  relay: 320,
  capture: 480,
  refill: 420,
  end: 0,
};

/** Milliseconds a ply's events take to show at the default speed. */
export function sowingMs(events: readonly PlyEvent[]): number {
  return events.reduce((sum, event) => sum + EVENT_MS[event.type], 0);
}

/** What the allowance adds to the sowing itself: the event's way to the player's screen. */
export const ALLOWANCE_BASE_MS = 250;
/**
 * The longest allowance. A long relay chain takes over ten seconds to show;
 * beyond this the screen plays it faster, so one move cannot hand the next
 * mover much free thinking time (both players have the same allowance).
 */
export const MAX_ALLOWANCE_MS = 5_000;

/**
 * The sowing allowance of a ply: after a move, the opponent's clock starts
 * only this long after the move is recorded, so that no one pays for
 * watching the stones move. It follows from the ply alone (its stones sown,
 * relays and captures at the default speed), capped.
 */
export function sowingAllowanceMs(events: readonly PlyEvent[]): number {
  return Math.min(MAX_ALLOWANCE_MS, ALLOWANCE_BASE_MS + sowingMs(events));
}
