// Helpers shared by the tests: study positions and a move that must be legal.
// Not part of the package (excluded from the build).

import type { Player } from '../board.js';
import type { PlyEvent } from '../events.js';
import type { Move } from '../moves.js';
import { play } from '../play.js';
import type { Position } from '../position.js';
import type { RuleOptions } from '../rule-options.js';
import { stateFromPosition, type State } from '../state.js';

export interface StudyOptions {
  quan?: [boolean, boolean];
  /** [dân, quan pieces] per player. */
  captured?: [[number, number], [number, number]];
  debt?: [number, number];
  toMove?: Player;
  ply?: number;
}

export function studyPosition(squares: number[], options: StudyOptions = {}): Position {
  const [[dan0, quan0], [dan1, quan1]] = options.captured ?? [
    [0, 0],
    [0, 0],
  ];
  return {
    squares,
    quan: options.quan ?? [true, true],
    captured: [
      { dan: dan0, quan: quan0 },
      { dan: dan1, quan: quan1 },
    ],
    debt: options.debt ?? [0, 0],
    toMove: options.toMove ?? 0,
    ply: options.ply ?? 0,
    status: 'playing',
    result: null,
  };
}

export function study(squares: number[], options: StudyOptions = {}, rules?: Partial<RuleOptions>): State {
  return stateFromPosition(studyPosition(squares, options), rules);
}

export function playOk(state: State, move: Move): { state: State; events: readonly PlyEvent[] } {
  const result = play(state, move);
  if (!result.ok) throw new Error(`move ${JSON.stringify(move)} refused: ${result.code}`);
  return result;
}

export function playAll(state: State, moves: readonly Move[]): State {
  return moves.reduce((current, move) => playOk(current, move).state, state);
}
