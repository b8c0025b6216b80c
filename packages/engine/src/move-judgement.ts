// How a move is judged: a label and an accuracy from what it gave away
// against the engine's best move, both in the mover's win chance and in
// points of the final margin.
//
// The win chance alone (as lichess judges) sees a close game well: two
// points can decide it. But once a game is lost its chance is near zero, and
// every later point thrown away is then judged as nothing, though in Ô ăn
// quan the margin is what players count (a 5–65 loss is not a 30–40 one).
// So a move is judged by the larger of two losses:
//   - the win chance it lost, in the game as it stands;
//   - the win chance the same points would lose in an even game, where the
//     curve is steepest (win-chance.ts): 0.5 − winChance(−points).
// With the fitted curve the thresholds below then read, in points lost:
//   good 0.6, inaccuracy 3, mistake 6.2, blunder 10.1
// so a blunder gives away about a quan piece (10 points), whatever the
// score. A close game is judged as before; a decided one by its points.
//
// Labels by the loss (0–1):
//   best        the engine's move, or less than 2 % lost
//   good        less than 10 %
//   inaccuracy  10 to 20 %
//   mistake     20 to 30 %
//   blunder     30 % or more
// Accuracy of a move is lichess's curve over the loss in percent:
// 103.1668 · e^(−0.04354 · loss) − 3.1669, clamped to 0–100.

import { WIN_CHANCE_SCALE, winChance } from './win-chance.js';

export type MoveLabel = 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder';

/** Lower bounds of each label, in the loss judged (0–1). */
export const LABEL_THRESHOLDS: Readonly<Record<Exclude<MoveLabel, 'best'>, number>> = Object.freeze({
  good: 0.02,
  inaccuracy: 0.1,
  mistake: 0.2,
  blunder: 0.3,
});

/** The same bounds in points lost, whatever the score (the inverse of `pointsWeight`). */
export const POINT_THRESHOLDS: Readonly<Record<Exclude<MoveLabel, 'best'>, number>> = Object.freeze(
  Object.fromEntries(Object.entries(LABEL_THRESHOLDS).map(([label, loss]) => [label, pointsFor(loss)])) as Record<Exclude<MoveLabel, 'best'>, number>,
);

/** The mover's win chance lost by playing a move valued `playedEval` where the best is valued `bestEval` (points). */
export function chanceLost(bestEval: number, playedEval: number): number {
  return Math.max(0, winChance(bestEval) - winChance(Math.min(playedEval, bestEval)));
}

/** What `points` thrown away cost in an even game: the win chance they lose from 50 %. */
export function pointsWeight(points: number): number {
  return points > 0 ? winChance(0) - winChance(-points) : 0;
}

/** The points whose weight is `loss` (0 ≤ loss < 0.5). */
function pointsFor(loss: number): number {
  return Math.log((0.5 + loss) / (0.5 - loss)) / WIN_CHANCE_SCALE;
}

/** The label of a move that lost `lost` (0–1) of the mover's win chance, or of its even-game weight. */
export function labelOf(lost: number): MoveLabel {
  if (lost >= LABEL_THRESHOLDS.blunder) return 'blunder';
  if (lost >= LABEL_THRESHOLDS.mistake) return 'mistake';
  if (lost >= LABEL_THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (lost >= LABEL_THRESHOLDS.good) return 'good';
  return 'best';
}

/** lichess's move accuracy from the mover's win percentage before and after the move. */
export function moveAccuracy(winBefore: number, winAfter: number): number {
  const raw = 103.1668 * Math.exp(-0.04354 * Math.max(0, winBefore - winAfter)) - 3.1669;
  return Math.min(100, Math.max(0, raw));
}

export interface Judgement {
  readonly label: MoveLabel;
  /** 0–100. */
  readonly accuracy: number;
}

/** A move's label and accuracy from the win chance (0–1) and the points it lost against the best move. */
export function judgeMove(chance: number, points: number): Judgement {
  const loss = Math.max(chance, pointsWeight(points));
  return { label: labelOf(loss), accuracy: moveAccuracy(100 * loss, 0) };
}
