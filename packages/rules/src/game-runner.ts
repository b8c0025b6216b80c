// R8, R10.9: a game of either size played move by move behind one small
// interface, for what walks a list of moves (replay, records) without
// caring which game it is.

import { fourPlayFast } from './four-play.js';
import type { FourPosition } from './four-position.js';
import { newFourGame, type FourGameSetup } from './four-state.js';
import type { Move, PlayErrorCode } from './moves.js';
import { playFast } from './play.js';
import type { Position } from './position.js';
import { newGame, type GameSetup } from './state.js';

export interface GameRunner<P> {
  /** The position after the moves played so far. */
  readonly position: P;
  /** Plays a move on: null, or the code of its refusal (then nothing changes). */
  play(move: Move): PlayErrorCode | null;
}

/** `rules.players: 4` starts a four-player game (R10.9), anything else a two-player one. Trusted setup: throws on bad options. */
export function startGame(setup: FourGameSetup): GameRunner<FourPosition>;
export function startGame(setup: GameSetup): GameRunner<Position>;
export function startGame(setup: GameSetup | FourGameSetup): GameRunner<Position | FourPosition>;
export function startGame(setup: GameSetup | FourGameSetup): GameRunner<Position | FourPosition> {
  if ((setup.rules as { players?: unknown } | undefined)?.players === 4) {
    return runner(newFourGame(setup as FourGameSetup), fourPlayFast);
  }
  return runner(newGame(setup as GameSetup), playFast);
}

function runner<S extends { readonly position: P }, P>(start: S, step: (state: S, move: Move) => S | PlayErrorCode): GameRunner<P> {
  let state = start;
  return {
    get position() {
      return state.position;
    },
    play(move) {
      const next = step(state, move);
      if (typeof next === 'string') return next;
      state = next;
      return null;
    },
  };
}
