// Games of weaker players against level 8, analysed as the server does, and
// what the analysis found on each side: the figures of the analysis
// calibration (analysis-calibration.ts prints them, its test bounds them).

import { DEFAULT_RULES } from '@oanquan/rules';
import { analyse, type PlyAnalysis } from '../src/analysis.js';
import { labelOf, moveAccuracy, type MoveLabel } from '../src/move-judgement.js';
import { randomMove } from '../src/testing/greedy.js';
import { enginePlayer, opening, playGame, type Player } from './match.js';

export const STRONG = enginePlayer({ level: 8 });

export interface Pairing {
  readonly name: string;
  readonly weak: Player;
}

export const PAIRINGS: readonly Pairing[] = [
  { name: 'random', weak: (state, seed) => randomMove(state, seed) },
  { name: 'level 1', weak: enginePlayer({ level: 1 }) },
  { name: 'level 2', weak: enginePlayer({ level: 2 }) },
  { name: 'level 8', weak: STRONG },
];

export interface SideFigures {
  /** Inaccuracies, mistakes, blunders. */
  readonly flaws: readonly [number, number, number];
  readonly accuracy: number;
  /** The same by the win chance alone, as moves were judged before points counted. */
  readonly chanceFlaws: readonly [number, number, number];
  readonly chanceAccuracy: number;
}

export interface CalibrationGame {
  readonly pairing: string;
  /** The weaker side's seat; it moves first on seat 0. */
  readonly seat: 0 | 1;
  /** The final score, the weaker side's first. */
  readonly score: readonly [number, number];
  readonly weak: SideFigures;
  readonly strong: SideFigures;
}

/** Game `g` of a pairing: the weaker side moves first in even games, second in odd ones. */
export function calibrationGame(index: number, pairing: Pairing, g: number, depth: number): CalibrationGame {
  const seat = (g % 2) as 0 | 1;
  const players: [Player, Player] = seat === 0 ? [pairing.weak, STRONG] : [STRONG, pairing.weak];
  const game = playGame(DEFAULT_RULES, opening(index * 17 + g, DEFAULT_RULES), players, 1009 * index + g);
  const result = analyse({ rules: DEFAULT_RULES, first: 0, moves: game.moves }, { depth });
  if (!result.ok) throw new Error(result.error.code);
  // A default game that ends by the rules splits 70 points (R5.3).
  const margin = seat === 0 ? game.margin : -game.margin;
  const own = 35 + margin / 2;
  return {
    pairing: pairing.name,
    seat,
    score: [own, 70 - own],
    weak: figures(result.analysis.plies, seat),
    strong: figures(result.analysis.plies, (1 - seat) as 0 | 1),
  };
}

function figures(plies: readonly PlyAnalysis[], seat: 0 | 1): SideFigures {
  const own = plies.filter((p) => p.player === seat);
  const tally = (labels: readonly MoveLabel[]) =>
    (['inaccuracy', 'mistake', 'blunder'] as const).map((flaw) => labels.filter((l) => l === flaw).length) as [number, number, number];
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  // The engine's own move and a forced one are best whatever was lost.
  const engineMove = (p: PlyAnalysis) => p.label === 'best' && p.pointsLost === 0;
  return {
    flaws: tally(own.map((p) => p.label)),
    accuracy: mean(own.map((p) => p.accuracy)),
    chanceFlaws: tally(own.map((p) => (engineMove(p) ? 'best' : labelOf(p.chanceLost)))),
    chanceAccuracy: mean(own.map((p) => (engineMove(p) ? p.accuracy : moveAccuracy(100 * p.chanceLost, 0)))),
  };
}

/** Mistakes and blunders of a side. */
export const mistakes = (side: SideFigures): number => side.flaws[1] + side.flaws[2];
