// R8 Conformance interface: a setup and a list of moves in, every position
// along the way out, or the first illegal move.

import type { Move, PlayErrorCode } from './moves.js';
import { playFast } from './play.js';
import type { Position } from './position.js';
import { newGame, type GameSetup } from './state.js';

export type ReplayResult =
  | { readonly ok: true; readonly positions: readonly Position[] }
  | { readonly ok: false; readonly error: { readonly ply: number; readonly code: PlayErrorCode } };

/**
 * `positions[0]` is the start and `positions[i]` the position after move i.
 * On an illegal move, `ply` is the ply count it was tried at, that is its
 * 0-based index in `moves`. The setup is trusted input: invalid options throw.
 */
export function replay(setup: GameSetup, moves: readonly Move[]): ReplayResult {
  let state = newGame(setup);
  const positions: Position[] = [state.position];
  for (let i = 0; i < moves.length; i++) {
    const next = playFast(state, moves[i]!);
    if (typeof next === 'string') return { ok: false, error: { ply: i, code: next } };
    state = next;
    positions.push(state.position);
  }
  return { ok: true, positions };
}
