// R3–R5 as they happen: the ordered events of one ply, fine enough to animate
// stone by stone and to describe in words.

import type { Player } from './board.js';
import type { EndReason } from './position.js';

/** R3.2: the mover takes every dân from a citizen square. */
export interface PickupEvent {
  readonly type: 'pickup';
  readonly square: number;
  readonly count: number;
}

/** R3.2: one dân falls on a square. */
export interface DropEvent {
  readonly type: 'drop';
  readonly square: number;
}

/** R3.3b: the square after the last stone held dân; they are taken up and sowing goes on. */
export interface RelayEvent {
  readonly type: 'relay';
  readonly square: number;
  readonly count: number;
}

/** R3.3c, R3.4: everything on a square is captured by the mover. */
export interface CaptureEvent {
  readonly type: 'capture';
  readonly square: number;
  readonly dan: number;
  /** Whether the square's quan piece was taken too. */
  readonly quan: boolean;
}

/** R4.3: the new mover's empty row gets one dân per square, in ascending index order. */
export interface RefillEvent {
  readonly type: 'refill';
  readonly player: Player;
  readonly squares: readonly number[];
  /** Dân paid from the player's own captured stock. */
  readonly own: number;
  /** Dân borrowed from the opponent's captured stock (added to the player's debt). */
  readonly borrowed: number;
}

/** R4.2–R4.5 and R5: the game is over. */
export interface EndEvent {
  readonly type: 'end';
  readonly reason: EndReason;
  readonly score: readonly [number, number];
  readonly winner: Player | null;
}

export type PlyEvent = PickupEvent | DropEvent | RelayEvent | CaptureEvent | RefillEvent | EndEvent;

/** The events of the turn itself (R3), the same on either board (R10.4). */
export type TurnEvent = PickupEvent | DropEvent | RelayEvent | CaptureEvent;

/** Where a turn appends its events: a list of two-player or of four-player events. */
export interface TurnEventSink {
  push(event: TurnEvent): unknown;
}
export type PlyEventType = PlyEvent['type'];
