import type { Direction } from '@oanquan/rules';
import type { PlayedMove, Seat } from '@oanquan/protocol';

/**
 * Which way a move sows on the screen of a viewer whose row is drawn at the
 * bottom. The bottom row runs left to right and the top row right to left
 * (R1.2), so `+1`, toward the mover's right (R1.3), points right on screen
 * only for the bottom player.
 */
export function screenSide(mover: Seat, dir: Direction, bottom: Seat): 'left' | 'right' {
  return (dir === 1) === (mover === bottom) ? 'right' : 'left';
}

/** A move as the viewer sees it: the square counted from the mover's own left (R1.4) and an arrow on screen. */
export function moveLabel(move: Pick<PlayedMove, 'seat' | 'square' | 'dir'>, bottom: Seat): string {
  return `${move.square - 6 * move.seat}${screenSide(move.seat, move.dir, bottom) === 'right' ? '→' : '←'}`;
}
