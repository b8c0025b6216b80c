// Puzzles from self-play: cheap games between low levels (their slips are
// what leaves one move clearly best for the other side), each position
// screened, the few that pass verified by a deeper search. A seed gives the
// same games and puzzles every time.

import { legalMoves, newGame, play, type RuleOptions, type State } from '@oanquan/rules';
import { bestMove } from '../best-move.js';
import type { Level } from '../levels.js';
import { seededRandom } from '../random.js';
import { findPuzzle, type Puzzle, type PuzzleOptions } from './find-puzzle.js';

export interface SelfPlayOptions extends PuzzleOptions {
  readonly seed: number;
  readonly rules?: Partial<RuleOptions>;
  /** Random plies at the start, so that games differ. */
  readonly randomPlies?: number;
  /** Two puzzles of one game are at least this many plies apart, so they are not one idea twice. */
  readonly spacing?: number;
  /** Puzzles per game, at most. */
  readonly perGame?: number;
}

/** The levels that play the games: weak enough to slip, strong enough to reach real middlegames. */
const LEVELS: readonly Level[] = [3, 4, 5, 6];

/** Plays one game from the seed and returns the puzzles found in it. */
export function selfPlayPuzzles(options: SelfPlayOptions): Puzzle[] {
  const random = seededRandom(options.seed);
  const levels: [Level, Level] = [pick(random, LEVELS), pick(random, LEVELS)];
  let state: State = newGame({ rules: options.rules ?? {}, first: random() < 0.5 ? 0 : 1 });
  const randomPlies = options.randomPlies ?? 4;
  const spacing = options.spacing ?? 4;
  const perGame = options.perGame ?? 4;
  const puzzles: Puzzle[] = [];
  let lastPly = -Infinity;

  while (state.position.status === 'playing' && puzzles.length < perGame) {
    const ply = state.position.ply;
    if (ply >= randomPlies && ply - lastPly >= spacing) {
      const puzzle = findPuzzle(state, options);
      if (puzzle !== null) {
        puzzles.push(puzzle);
        lastPly = ply;
      }
    }
    const move =
      ply < randomPlies
        ? pick(random, legalMoves(state))
        : bestMove(state, { level: levels[state.position.toMove], seed: Math.floor(random() * 2 ** 31) }).move;
    const next = play(state, move);
    if (!next.ok) throw new RangeError(`self-play made an illegal move: ${next.code}`);
    state = next.state;
  }
  return puzzles;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
