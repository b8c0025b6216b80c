// How much moving first is worth, per rule preset and level: the first
// mover's score in self-play, with a 95 % interval. Levels 7 and 8 are
// deterministic and would play one game over and over, so every game opens
// with a few plies drawn among the near-best moves (each side alike: the
// draw favours neither seat), then the level plays on. The last column is
// the rated format, two games with the first move swapped: the toss
// winner's score over such a pairing, from consecutive games taken as the
// pairing's two games.

import { legalMoves, play, PRESETS, resolveRules, type Move, type RuleOptions, type State } from '@oanquan/rules';
import { bestMove } from '../src/best-move.js';
import type { Level } from '../src/levels.js';
import { seededRandom } from '../src/random.js';
import { scoreInterval } from '../src/score-interval.js';
import { enginePlayer, playGame, type Player } from './match.js';

export const BALANCE_PRESETS: ReadonlyArray<readonly [string, RuleOptions]> = [
  ['classic', PRESETS.classic],
  ['classic, emptyQuanIsGap', resolveRules({ emptyQuanIsGap: true })],
  ['vietnam', PRESETS.vietnam],
];

/** Plies drawn among the near-best moves before the level plays. */
const OPENING_PLIES = 4;
/** A move is near-best within this many points of the best, as a depth-4 search values them. */
const NEAR_POINTS = 2;
const PROBE_DEPTH = 4;

/** A move's value to its mover, in points: the final margin when it ends the game, else a shallow search's. */
function valueOf(state: State, move: Move): number {
  const mover = state.position.toMove;
  const result = play(state, move);
  if (!result.ok) throw new Error(`illegal move ${JSON.stringify(move)}: ${result.code}`);
  const after = result.state;
  if (after.position.status !== 'playing') {
    const [s0, s1] = after.position.result!.score;
    return mover === 0 ? s0 - s1 : s1 - s0;
  }
  const value = bestMove(after, { depth: PROBE_DEPTH }).eval;
  return after.position.toMove === mover ? value : -value;
}

/** Plays a level, except for the first OPENING_PLIES plies: a move drawn among those within NEAR_POINTS of the best. */
export function variedPlayer(level: Level): Player {
  const engine = enginePlayer({ level });
  return (state, seed) => {
    if (state.position.ply >= OPENING_PLIES) return engine(state, seed);
    const moves = legalMoves(state);
    const values = moves.map((move) => valueOf(state, move));
    const best = Math.max(...values);
    const near = moves.filter((_, i) => values[i]! >= best - NEAR_POINTS);
    return near[Math.floor(seededRandom(seed)() * near.length)]!;
  };
}

export interface Balance {
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** The first mover's points per game (a win 1, a draw ½). */
  readonly score: number;
  readonly interval: readonly [number, number];
  /** The toss winner's points per game over pairings of two games with the first move swapped. */
  readonly pairing: number;
  readonly pairingInterval: readonly [number, number];
}

export function firstMoverBalance(rules: RuleOptions, level: Level, games: number, seed: number): Balance {
  const player = variedPlayer(level);
  const points: number[] = [];
  for (let i = 0; i < games; i++) {
    const { margin } = playGame(rules, [], [player, player], seed + 7919 * i);
    points.push(margin > 0 ? 1 : margin === 0 ? 0.5 : 0);
  }
  const wins = points.filter((p) => p === 1).length;
  const draws = points.filter((p) => p === 0.5).length;
  const score = points.reduce((a, b) => a + b, 0) / games;
  // Game 2k is the toss winner's first game (they move first), game 2k+1 their return game (they move second).
  const pairs = Math.floor(games / 2);
  let pairPoints = 0;
  for (let k = 0; k < pairs; k++) pairPoints += points[2 * k]! + (1 - points[2 * k + 1]!);
  const pairing = pairs === 0 ? 0.5 : pairPoints / (2 * pairs);
  return { games, wins, draws, losses: games - wins - draws, score, interval: scoreInterval(score, games), pairing, pairingInterval: scoreInterval(pairing, 2 * pairs) };
}

const percent = (x: number) => `${(100 * x).toFixed(0)} %`;
const range = ([low, high]: readonly [number, number]) => `${percent(low)}–${percent(high)}`;

/** The table `pnpm bench` prints; `gamesOf(level)` is how many games each cell plays. */
export function printBalance(levels: readonly Level[], gamesOf: (level: Level) => number): void {
  console.log(
    `first mover's score in self-play, 95 % interval (Wilson); first ${OPENING_PLIES} plies drawn among moves within ${NEAR_POINTS} points of the best; ` +
      'last columns: the toss winner over two-game pairings with the first move swapped',
  );
  console.log(`  ${'rules'.padEnd(24)} ${'level'.padStart(5)} ${'games'.padStart(5)}   ${'W-D-L'.padEnd(9)} ${'score'.padStart(6)}  ${'95 %'.padEnd(10)}  ${'pairing'.padStart(7)}  95 %`);
  for (const [name, rules] of BALANCE_PRESETS) {
    for (const level of levels) {
      const b = firstMoverBalance(rules, level, gamesOf(level), 31 * level);
      console.log(
        `  ${name.padEnd(24)} ${String(level).padStart(5)} ${String(b.games).padStart(5)}   ${`${b.wins}-${b.draws}-${b.losses}`.padEnd(9)} ` +
          `${percent(b.score).padStart(6)}  ${range(b.interval).padEnd(10)}  ${percent(b.pairing).padStart(7)}  ${range(b.pairingInterval)}`,
      );
    }
  }
}
