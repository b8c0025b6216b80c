// R7.1 Move notation: `k>` or `k<`, k counted from the mover's own left
// (R1.4), `>` toward the mover's right (+1), `<` toward their left (−1).

import { ownerOf, type Player } from './board.js';
import { moveOf, type Move } from './moves.js';

/** `{ square: 9, dir: -1 }` by player 1 is `3<`. Throws if the square is not the player's. */
export function formatMove(move: Move, player: Player): string {
  if (ownerOf(move.square) !== player || (move.dir !== 1 && move.dir !== -1)) {
    throw new RangeError(`square ${move.square} (dir ${move.dir}) is not a move of player ${player}`);
  }
  return `${move.square - 6 * player}${move.dir === 1 ? '>' : '<'}`;
}

/** The move written `text` by `player`, or null if it is not R7.1 notation. */
export function parseMove(text: string, player: Player): Move | null {
  if (text.length !== 2) return null;
  const k = text.charCodeAt(0) - 48;
  if (k < 1 || k > 5) return null;
  const arrow = text[1];
  if (arrow !== '>' && arrow !== '<') return null;
  return moveOf(6 * player + k, arrow === '>' ? 1 : -1);
}
