// The leaf value: the expected final score margin from the mover's view, in
// points. Its base is exact, the R5 score difference if the game ended now
// (banked points plus each row); the weights add what that misses.

import { scoreMargin, type GameNode } from './game-node.js';

export interface EvaluationWeights {
  /** Points per dân on one's own row beyond the one it is worth at the end: dân there can still be captured. */
  readonly row: number;
  /** Points per non-empty square of one's own row: more choice, fewer forced moves. */
  readonly mobility: number;
  /** Points for being the one to move: the next capture is theirs to make. */
  readonly tempo: number;
}

/** The plain score difference, as a baseline searches it. */
export const SCORE_ONLY: EvaluationWeights = Object.freeze({ row: 0, mobility: 0, tempo: 0 });

/** The engine's weights, fitted by matches at fixed depth (see the README). */
export const ENGINE_WEIGHTS: EvaluationWeights = Object.freeze({ row: -0.25, mobility: 0.5, tempo: 1 });

export type Evaluate = (node: GameNode) => number;

export function evaluation(weights: EvaluationWeights): Evaluate {
  const { row, mobility, tempo } = weights;
  return (node) => {
    const s = node.squares;
    const row0 = s[1]! + s[2]! + s[3]! + s[4]! + s[5]!;
    const row1 = s[7]! + s[8]! + s[9]! + s[10]! + s[11]!;
    const filled0 = (s[1] ? 1 : 0) + (s[2] ? 1 : 0) + (s[3] ? 1 : 0) + (s[4] ? 1 : 0) + (s[5] ? 1 : 0);
    const filled1 = (s[7] ? 1 : 0) + (s[8] ? 1 : 0) + (s[9] ? 1 : 0) + (s[10] ? 1 : 0) + (s[11] ? 1 : 0);
    const forZero = scoreMargin(node) + row * (row0 - row1) + mobility * (filled0 - filled1);
    return (node.toMove === 0 ? forZero : -forZero) + tempo;
  };
}

/** The exact value of an ended game from the mover's view. */
export function finalValue(node: GameNode): number {
  const margin = scoreMargin(node);
  return node.toMove === 0 ? margin : -margin;
}
