// A round robin of the levels and two fixed baselines (random play, and a
// greedy player who takes the biggest capture one ply ahead), with an
// Elo-like rating per player fitted to all the games at once. Every player
// is budgeted in depth or nodes, so the table is the same on a busy machine.

import type { RuleOptions } from '@oanquan/rules';
import { LEVELS } from '../src/levels.js';
import { greedyMove, randomMove } from '../src/testing/greedy.js';
import { enginePlayer, pairedMatch, type Player } from './match.js';

export interface Entrant {
  readonly name: string;
  readonly play: Player;
}

export const ENTRANTS: readonly Entrant[] = [
  { name: 'random', play: (state, seed) => randomMove(state, seed) },
  { name: 'greedy', play: (state) => greedyMove(state) },
  ...LEVELS.map((level) => ({ name: `level ${level}`, play: enginePlayer({ level }) })),
];

export interface RobinResult {
  readonly names: readonly string[];
  /** points[i][j]: i's points against j (a win 1, a draw ½). */
  readonly points: number[][];
  readonly games: number[][];
  /** Elo-like ratings, random play at 0. */
  readonly ratings: number[];
}

/** Every pair plays `pairs` openings from both seats. */
export function roundRobin(rules: RuleOptions, entrants: readonly Entrant[], pairs: number, onPair?: (a: number, b: number) => void): RobinResult {
  const n = entrants.length;
  const points = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const games = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const score = pairedMatch(rules, entrants[a]!.play, entrants[b]!.play, pairs, 7 * a + 131 * b);
      points[a]![b] = score.score * score.games;
      points[b]![a] = (1 - score.score) * score.games;
      games[a]![b] = games[b]![a] = score.games;
      onPair?.(a, b);
    }
  }
  return { names: entrants.map((e) => e.name), points, games, ratings: fitRatings(points, games) };
}

/**
 * Bradley–Terry ratings on the Elo scale by minorisation–maximisation, with
 * half a virtual draw against every other player so that a player who won
 * or lost every game still gets a finite rating.
 */
export function fitRatings(points: readonly number[][], games: readonly number[][]): number[] {
  const n = points.length;
  const p = (i: number, j: number) => points[i]![j]! + 0.25;
  const g = (i: number, j: number) => games[i]![j]! + 0.5;
  let strength = new Array<number>(n).fill(1);
  for (let round = 0; round < 2000; round++) {
    strength = strength.map((s, i) => {
      let won = 0;
      let sum = 0;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        won += p(i, j);
        sum += g(i, j) / (s + strength[j]!);
      }
      return won / sum;
    });
  }
  return strength.map((s) => (400 * Math.log10(s / strength[0]!)));
}
