// A game to search as plain data (a structured clone crosses threads as
// this), and the state it describes: shared by the pool's workers and a
// browser's engine worker.

import { newGame, play, stateFromPosition, validatePosition, type Position, type RuleOptions, type State } from '@oanquan/rules';
import type { GameMoves } from './analysis.js';

export const ERR_BAD_POSITION = 'ERR_BAD_POSITION';

/** A game to search: its moves from the start, or a position (a study). */
export type GameInput = GameMoves | { readonly rules?: Partial<RuleOptions>; readonly position: Position };

export interface InputError {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

/** The state a game input describes, or why it describes none (a rules code, or ERR_BAD_POSITION). */
export function stateOfGame(game: GameInput): State | InputError {
  if ('position' in game) {
    const checked = validatePosition(game.position);
    if (!checked.ok) return { ok: false, code: ERR_BAD_POSITION, message: checked.message };
    return stateFromPosition(checked.position, game.rules);
  }
  let state = newGame({ rules: game.rules ?? {}, first: game.first ?? 0 });
  for (const [ply, move] of game.moves.entries()) {
    const next = play(state, move);
    if (!next.ok) return { ok: false, code: next.code, message: `move ${ply} is not legal` };
    state = next.state;
  }
  return state;
}
