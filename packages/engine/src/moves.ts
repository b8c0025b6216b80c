// Moves inside the search are small integers: 2 × (k − 1) for the mover's
// k-th square sown toward their right (+1), one more toward their left (−1).
// They become the rules' own move objects only at the edge.

import { moveOf, type Move, type Player } from '@oanquan/rules';

export const MOVE_COUNT = 10;

export function squareOfMove(mover: Player, move: number): number {
  return 6 * mover + (move >> 1) + 1;
}

export function dirOfMove(move: number): 1 | -1 {
  return (move & 1) === 0 ? 1 : -1;
}

export function toRulesMove(mover: Player, move: number): Move {
  return moveOf(squareOfMove(mover, move), dirOfMove(move));
}

/** The search's index of a rules move by the given mover, or −1 if the square is not theirs. */
export function fromRulesMove(mover: Player, move: Move): number {
  const k = move.square - 6 * mover;
  if (k < 1 || k > 5) return -1;
  return 2 * (k - 1) + (move.dir === 1 ? 0 : 1);
}
