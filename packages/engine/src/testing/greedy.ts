// Fixed baselines to measure the levels against: a player who has learnt to
// take the biggest capture, and one who plays at random. Not part of the
// package (excluded from the build).

import type { Move, State } from '@oanquan/rules';
import { nodeOf, nodeRules, playNode } from '../game-node.js';
import { toRulesMove, squareOfMove, dirOfMove } from '../moves.js';
import { legalOf } from '../search.js';
import { seededRandom } from '../random.js';

/**
 * One ply: the move that maximises the mover's banked points less the
 * opponent's, plus a quarter of the difference in dân on the two rows.
 * Ties go to the first such move, so the player is deterministic.
 */
export function greedyMove(state: State): Move {
  const rules = nodeRules(state.rules);
  const root = nodeOf(state);
  const mover = root.toMove;
  let best = -1;
  let bestValue = -Infinity;
  for (const move of legalOf(root)) {
    const child = playNode(rules, root, squareOfMove(mover, move), dirOfMove(move));
    const s = child.squares;
    const rows = s[1]! + s[2]! + s[3]! + s[4]! + s[5]! - s[7]! - s[8]! - s[9]! - s[10]! - s[11]!;
    const forZero = child.banked + rows / 4;
    const value = mover === 0 ? forZero : -forZero;
    if (value > bestValue) {
      bestValue = value;
      best = move;
    }
  }
  return toRulesMove(mover, best);
}

/** A legal move drawn uniformly with the seed. */
export function randomMove(state: State, seed: number): Move {
  const root = nodeOf(state);
  const moves = legalOf(root);
  return toRulesMove(root.toMove, moves[Math.floor(seededRandom(seed)() * moves.length)]!);
}
