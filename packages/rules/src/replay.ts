// R8 Conformance interface: a setup and a list of moves in, every position
// along the way out, or the first illegal move. R10.9: `rules.players: 4`
// (with `teams: 2` for teams) replays a four-player game, `first` 0–3.

import type { FourPosition } from './four-position.js';
import type { FourGameSetup } from './four-state.js';
import { startGame } from './game-runner.js';
import type { Move, PlayErrorCode } from './moves.js';
import type { Position } from './position.js';
import type { GameSetup } from './state.js';

export type ReplayResult<P = Position> =
  | { readonly ok: true; readonly positions: readonly P[] }
  | { readonly ok: false; readonly error: { readonly ply: number; readonly code: PlayErrorCode } };

/**
 * `positions[0]` is the start and `positions[i]` the position after move i.
 * On an illegal move, `ply` is the ply count it was tried at, that is its
 * 0-based index in `moves`. The setup is trusted input: invalid options throw.
 */
export function replay(setup: GameSetup, moves: readonly Move[]): ReplayResult;
export function replay(setup: FourGameSetup, moves: readonly Move[]): ReplayResult<FourPosition>;
export function replay(setup: GameSetup | FourGameSetup, moves: readonly Move[]): ReplayResult<Position | FourPosition>;
export function replay(setup: GameSetup | FourGameSetup, moves: readonly Move[]): ReplayResult<Position | FourPosition> {
  const game = startGame(setup);
  const positions = [game.position];
  for (let i = 0; i < moves.length; i++) {
    const code = game.play(moves[i]!);
    if (code !== null) return { ok: false, error: { ply: i, code } };
    positions.push(game.position);
  }
  return { ok: true, positions };
}
