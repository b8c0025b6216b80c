import { formatMove, parseMove, type Direction, type Player } from '@oanquan/rules';

/**
 * One name for a move on every screen. The board is turned half a circle for
 * the player on seat 1, never mirrored, so left and right swap between two
 * viewers while the rotation does not: `+1` runs counter-clockwise seen from
 * above (R1.3) on every board. The square is the mover's own number (R1.4),
 * the one the board shows on it, so "Rồng's 3 ↺" is the same square and the
 * same way round for both players and every spectator.
 */
export type Rotation = 'ccw' | 'cw';

export function rotationOf(dir: Direction): Rotation {
  return dir === 1 ? 'ccw' : 'cw';
}

/** `3↺`: the square counted from the mover's own left and the way round it was sown. */
export function moveName(move: { readonly seat: Player; readonly square: number; readonly dir: Direction }): string {
  return formatMove(move, move.seat, 'arrows');
}

/** The screen name of R7.1 text (`3>` is `3↺`, `3<` is `3↻`), or null if it is not R7.1. */
export function nameOfNotation(notation: string): string | null {
  const move = ascii(notation) ? parseMove(notation, 0) : null;
  return move ? moveName({ seat: 0, ...move }) : null;
}

/** The R7.1 text of a screen name, or null if it is not one. */
export function notationOfName(name: string): string | null {
  const move = ascii(name) ? null : parseMove(name, 0);
  return move ? formatMove(move, 0) : null;
}

/** Whether a move is spelt R7.1's way (the rules read both spellings). */
function ascii(text: string): boolean {
  return text[1] === '>' || text[1] === '<';
}
