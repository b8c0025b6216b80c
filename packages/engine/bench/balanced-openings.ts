// Balanced openings for level 8 against the greedy player. The paired
// openings of match.ts force the second mover's reply past the tenth, and a
// deep search finds many of those positions lost for one seat by 12 to 40
// points: a loss from such a seat says nothing about level 8. These openings
// are drawn instead by a seeded generator (two to four forced plies) and kept
// only where a deep search finds the position close to even, so that a loss
// from either seat is level 8's own doing.
// make-balanced-openings.ts chooses them and writes balanced-openings.json;
// balanced-openings.test.ts checks the list is the generator's.

import { readFileSync } from 'node:fs';
import { legalMoves, newGame, play, type Move, type RuleOptions, type State } from '@oanquan/rules';
import { seededRandom } from '../src/random.js';

/** Seeds candidate i with BASE_SEED + i. */
export const BASE_SEED = 290_400;
/**
 * Kept when the deep search's value lies within this many points of even
 * (quan pieces at 10, 70 points in play): less than a point, so that the
 * search finds neither seat lost, and a loss from either seat is level 8's
 * own doing. A margin of 4 let in openings that leave one seat 2 to 4 points
 * down with best play, and level 8 lost one game in a hundred from such a
 * seat, as the search said it would.
 */
export const BALANCE_MARGIN = 0.5;
/** Nodes of the deep search: a budget in nodes, so the values are the same on any machine. */
export const DEEP_NODES = 1_000_000;

export interface BalancedOpening {
  /** The generator's candidate index. */
  readonly candidate: number;
  readonly moves: readonly Move[];
  /** The deep search's value from the first mover's (player 0's) view, in points. */
  readonly value: number;
  /** The depth that search reached. */
  readonly depth: number;
}

/** Candidate i: two to four plies, each a legal move drawn with the seed; null when the game ended on the way. */
export function candidateOpening(index: number, rules?: RuleOptions): { moves: Move[]; state: State } | null {
  const random = seededRandom(BASE_SEED + index);
  const plies = 2 + Math.floor(random() * 3);
  let state = newGame({ rules, first: 0 });
  const moves: Move[] = [];
  for (let ply = 0; ply < plies; ply++) {
    if (state.position.status !== 'playing') return null;
    const legal = legalMoves(state);
    const move = legal[Math.floor(random() * legal.length)]!;
    const next = play(state, move);
    if (!next.ok) throw new Error(`illegal move ${JSON.stringify(move)}: ${next.code}`);
    moves.push(move);
    state = next.state;
  }
  return state.position.status === 'playing' ? { moves, state } : null;
}

/** A key for the position an opening reaches, so two move orders to one position count once. */
export function positionKey(state: State): string {
  const p = state.position;
  return JSON.stringify([p.squares, p.quan, p.captured, p.debt, p.toMove]);
}

export const BALANCED_OPENINGS_FILE = new URL('./balanced-openings.json', import.meta.url);

/** The committed list, or another the script wrote. */
export function balancedOpenings(file: string | URL = BALANCED_OPENINGS_FILE): BalancedOpening[] {
  return JSON.parse(readFileSync(file, 'utf8')) as BalancedOpening[];
}
