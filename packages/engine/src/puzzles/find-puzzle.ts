// Puzzles: positions where one move is clearly best, with the short forced
// line that follows. A position is a puzzle when, searched with every root
// move given an exact value, the best move
//   - wins (margin > 0) where every other move draws or loses, by at least
//     WIN_GAP points, or
//   - gains at least POINT_GAP points more than every other move,
// first by a cheap screen, then again by a deeper search (verification),
// which must name the same move. The line goes on while the solver's next
// move is just as clearly best (checked at the verification depth too), up
// to `maxSolverMoves`; the opponent's replies in between are the search's
// best defence. A position with one legal move is never a puzzle.

import { play, stateFromPosition, type Move, type Position, type RuleOptions, type State } from '@oanquan/rules';
import { ENGINE_WEIGHTS } from '../evaluation.js';
import { nodeOf, nodeRules } from '../game-node.js';
import { toRulesMove } from '../moves.js';
import { Search, legalOf, type SearchLimits } from '../search.js';
import { themesOf, type PuzzleTheme } from './themes.js';

export interface PuzzleOptions {
  /** Depth of the first, cheap look; most positions stop here. */
  readonly screenDepth?: number;
  /** Depth of the verification, which must agree with the screen. */
  readonly verifyDepth?: number;
  /** Node budget of the whole verification of one position; past it the position is no puzzle. */
  readonly nodes?: number;
  /** Solver moves in the line, at most. */
  readonly maxSolverMoves?: number;
}

export interface Puzzle {
  readonly position: Position;
  readonly rules: RuleOptions;
  /** Solver, opponent, solver, …: always an odd number of moves, starting and ending with the solver's. */
  readonly line: readonly Move[];
  /** The best move's value, from the solver's view (expected final margin, points). */
  readonly eval: number;
  /** How far the best move is ahead of the second best, in points, at the verification depth. */
  readonly gap: number;
  /** Whether the best move wins where every other draws or loses. */
  readonly winning: boolean;
  readonly themes: readonly PuzzleTheme[];
  /**
   * The shallowest search (1, 2, 3 or 5 plies) whose best move is the
   * puzzle's, or 0 when none of them finds it: a first guess at how hard the
   * puzzle is, before anyone has tried it.
   */
  readonly foundAtDepth: number;
}

/** A win that every other move throws away counts from this gap. */
export const WIN_GAP = 4;
/** Without a change of result, the best move must be this far ahead. */
export const POINT_GAP = 10;

const DEFAULTS = { screenDepth: 5, verifyDepth: 9, nodes: 3_000_000, maxSolverMoves: 2 } as const;

interface Verdict {
  readonly move: number;
  readonly value: number;
  readonly gap: number;
  readonly winning: boolean;
}

/** Whether the values of every root move single one out; null when none stands out. */
export function clearBest(values: ReadonlyMap<number, number>): Verdict | null {
  if (values.size < 2) return null;
  let move = -1;
  let value = -Infinity;
  for (const [m, v] of values) {
    if (v > value) {
      move = m;
      value = v;
    }
  }
  let second = -Infinity;
  for (const [m, v] of values) if (m !== move && v > second) second = v;
  const gap = value - second;
  const winning = value > 0 && second <= 0;
  if ((winning && gap >= WIN_GAP) || gap >= POINT_GAP) return { move, value, gap, winning };
  return null;
}

/** The position's puzzle, verified, or null. The state's game must still be playing. */
export function findPuzzle(state: State, options: PuzzleOptions = {}): Puzzle | null {
  if (state.position.status !== 'playing') return null;
  const settings = { ...DEFAULTS, ...options };
  const rules = nodeRules(state.rules);
  const search = new Search(rules, ENGINE_WEIGHTS);
  const limits: SearchLimits = { depth: settings.verifyDepth, nodes: settings.nodes, deadline: Infinity, softDeadline: Infinity };

  const screened = judge(search, state, settings.screenDepth, limits);
  if (screened === null) return null;
  const verified = judge(search, state, settings.verifyDepth, limits);
  if (verified === null || verified.move !== screened.move) return null;

  const line = lineOf(search, state, verified.move, settings, limits);
  if (line === null) return null;
  return {
    position: state.position,
    rules: state.rules,
    line,
    eval: verified.value,
    gap: verified.gap,
    winning: verified.winning,
    themes: themesOf(state, line),
    foundAtDepth: foundAtDepth(state, verified.move),
  };
}

/** Puzzle ratings before anyone has tried them, by `foundAtDepth` (Glicko-2's scale, 1500 in the middle). */
export function initialPuzzleRating(puzzle: Pick<Puzzle, 'foundAtDepth' | 'line'>): number {
  const byDepth: Record<number, number> = { 1: 1100, 2: 1300, 3: 1500, 5: 1700 };
  const solverMoves = (puzzle.line.length + 1) / 2;
  return (byDepth[puzzle.foundAtDepth] ?? 1900) + 150 * (solverMoves - 1);
}

function foundAtDepth(state: State, move: number): number {
  const root = nodeOf(state);
  for (const depth of [1, 2, 3, 5]) {
    // A fresh table each time, so a deeper pass cannot lend a shallow one what it found.
    const search = new Search(nodeRules(state.rules), ENGINE_WEIGHTS, 12);
    const values = search.rootValues(root, depth, unlimited(depth));
    if (values === null) return 0;
    let best = -1;
    let value = -Infinity;
    for (const [m, v] of values) {
      if (v > value) {
        best = m;
        value = v;
      }
    }
    if (best === move) return depth;
  }
  return 0;
}

function unlimited(depth: number): SearchLimits {
  return { depth, nodes: Infinity, deadline: Infinity, softDeadline: Infinity };
}

/** Rebuilds a puzzle's state (R4.5 counts from the puzzle's position). */
export function puzzleState(position: Position, rules: Partial<RuleOptions>): State {
  return stateFromPosition(position, rules);
}

function judge(search: Search, state: State, depth: number, limits: SearchLimits): Verdict | null {
  const root = nodeOf(state);
  if (legalOf(root).length < 2) return null;
  // Shallower passes first fill the table, which orders the deep pass's moves.
  for (let d = Math.min(depth, 3); d < depth; d += 2) if (search.rootValues(root, d, limits) === null) return null;
  const values = search.rootValues(root, depth, limits);
  return values === null ? null : clearBest(values);
}

/**
 * The solver's move, then while moves remain: the opponent's best reply and
 * the solver's next move if it is clearly best too. Null when the search ran
 * out of nodes on the way.
 */
function lineOf(
  search: Search,
  state: State,
  first: number,
  settings: Required<PuzzleOptions>,
  limits: SearchLimits,
): Move[] | null {
  const solver = state.position.toMove;
  const line: Move[] = [toRulesMove(solver, first)];
  let current = playLine(state, line);
  for (let made = 1; made < settings.maxSolverMoves; made++) {
    if (current.position.status !== 'playing') break;
    const reply = search.iterate(nodeOf(current), { ...limits, depth: settings.verifyDepth - 1 });
    const opponentMove = toRulesMove(current.position.toMove, reply.move);
    const after = playLine(current, [opponentMove]);
    if (after.position.status !== 'playing' || after.position.toMove !== solver) break;
    const next = judge(search, after, settings.verifyDepth - 2, limits);
    if (next === null) break;
    line.push(opponentMove, toRulesMove(solver, next.move));
    current = playLine(after, [toRulesMove(solver, next.move)]);
  }
  return line;
}

/** Plays moves known to be legal; an illegal one is a bug in the caller. */
export function playLine(state: State, moves: readonly Move[]): State {
  let current = state;
  for (const move of moves) {
    const next = play(current, move);
    if (!next.ok) throw new RangeError(`illegal line move: ${next.code}`);
    current = next.state;
  }
  return current;
}
