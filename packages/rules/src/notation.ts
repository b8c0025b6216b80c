// R7.1 Move notation: `k>` or `k<`, k counted from the mover's own left
// (R1.4), `>` toward the mover's right (+1), `<` toward their left (−1).
//
// The screens write the same move with the way round it is sown instead:
// `k↺` for `k>` and `k↻` for `k<`. By R1.3 `+1` runs counter-clockwise seen
// from above for both players, so the arrow reads the same from either side
// of the board (left and right swap between two viewers, the rotation does
// not). Both spellings are read everywhere; R7.1's is written by default.
// With four players (R10.9) moves are written the same way, from each
// mover's own left; +1 is counter-clockwise from every side of that board too.

import type { Direction } from './board.js';
import type { Seat } from './four-board.js';
import { moveOf, type Move } from './moves.js';

/** `ascii`: R7.1's `3>`; `arrows`: the screens' `3↺`. */
export type MoveSpelling = 'ascii' | 'arrows';

const SIGNS: Readonly<Record<MoveSpelling, Readonly<Record<'1' | '-1', string>>>> = {
  ascii: { '1': '>', '-1': '<' },
  arrows: { '1': '\u21ba', '-1': '\u21bb' },
};

/**
 * `{ square: 9, dir: -1 }` by player 1 is `3<` (`3↻` with arrows). Throws if
 * the square is not the player's (R1.4, R10.2: `6p + k`, k = 1..5).
 */
export function formatMove(move: Move, player: Seat, spelling: MoveSpelling = 'ascii'): string {
  const k = move.square - 6 * player;
  if (!Number.isInteger(k) || k < 1 || k > 5 || (move.dir !== 1 && move.dir !== -1)) {
    throw new RangeError(`square ${move.square} (dir ${move.dir}) is not a move of player ${player}`);
  }
  return `${k}${SIGNS[spelling][move.dir]}`;
}

/** The move written `text` by `player` (0–1, or 0–3 with four) in either spelling, or null if it is not one. */
export function parseMove(text: string, player: Seat): Move | null {
  if (text.length !== 2) return null;
  const k = text.charCodeAt(0) - 48;
  if (k < 1 || k > 5) return null;
  const dir = directionOfSign(text[1]!);
  return dir === null ? null : moveOf(6 * player + k, dir);
}

/** The direction a move's second character stands for, or null if it names none. */
export function directionOfSign(sign: string): Direction | null {
  if (sign === SIGNS.ascii['1'] || sign === SIGNS.arrows['1']) return 1;
  if (sign === SIGNS.ascii['-1'] || sign === SIGNS.arrows['-1']) return -1;
  return null;
}
