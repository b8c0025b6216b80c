// R8 Conformance interface: a setup and a list of moves in, every position
// along the way out, or the first illegal move. R10.9: `rules.players: 4`
// (with `teams: 2` for teams) replays a four-player game, `first` 0–3.

import { fourPlayFast } from './four-play.js';
import type { FourPosition } from './four-position.js';
import { newFourGame, type FourGameSetup } from './four-state.js';
import type { Move, PlayErrorCode } from './moves.js';
import { playFast } from './play.js';
import type { Position } from './position.js';
import { newGame, type GameSetup } from './state.js';

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
  if (isFourSetup(setup)) {
    let state = newFourGame(setup);
    return collect(state.position, moves, (move) => {
      const next = fourPlayFast(state, move);
      if (typeof next === 'string') return next;
      state = next;
      return state.position;
    });
  }
  let state = newGame(setup);
  return collect(state.position, moves, (move) => {
    const next = playFast(state, move);
    if (typeof next === 'string') return next;
    state = next;
    return state.position;
  });
}

function isFourSetup(setup: GameSetup | FourGameSetup): setup is FourGameSetup {
  return (setup.rules as { players?: unknown } | undefined)?.players === 4;
}

function collect<P extends object>(start: P, moves: readonly Move[], step: (move: Move) => P | PlayErrorCode): ReplayResult<P> {
  const positions: P[] = [start];
  for (let i = 0; i < moves.length; i++) {
    const next = step(moves[i]!);
    if (typeof next === 'string') return { ok: false, error: { ply: i, code: next } };
    positions.push(next);
  }
  return { ok: true, positions };
}
