// What the page and its engine worker say to each other: plain data, as a
// structured clone carries it.

import type { GameInput, Level } from '@oanquan/engine/browser';
import type { Move } from '@oanquan/rules';

export interface MoveRequest {
  readonly id: number;
  readonly game: GameInput;
  readonly level: Level;
  readonly seed: number;
}

export type MoveReply =
  | { readonly id: number; readonly ok: true; readonly move: Move }
  | { readonly id: number; readonly ok: false; readonly code: string; readonly message: string };

/** The game has ended: there is no move to find. */
export const ERR_GAME_OVER = 'ERR_GAME_OVER';
/** The worker failed to start or crashed; the next call starts a new one. */
export const ERR_ENGINE_WORKER = 'ERR_ENGINE_WORKER';
