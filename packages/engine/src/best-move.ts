// The search API: the move to play in a game, its value and the line the
// engine expects.

import type { Move, State } from '@oanquan/rules';
import { ENDGAME_NODES, solveEndgame, withinEndgameLimit } from './endgame.js';
import { ENGINE_WEIGHTS, type EvaluationWeights } from './evaluation.js';
import { nodeOf, nodeRules, playNode, type GameNode, type NodeRules } from './game-node.js';
import { LEVEL_SETTINGS, isLevel, type Level } from './levels.js';
import { dirOfMove, squareOfMove, toRulesMove } from './moves.js';
import { seededRandom } from './random.js';
import { MAX_DEPTH, Search, type SearchLimits } from './search.js';

export interface SearchOptions {
  /** A bot level (1–8): its depth and node budgets, which `depth` and `nodes` replace and `timeMs` and `deadlineAt` only cap. */
  readonly level?: Level;
  /** Time budget per move, in milliseconds, from the moment the search starts. */
  readonly timeMs?: number;
  /**
   * A hard wall-clock deadline (epoch milliseconds, as `Date.now()`): the
   * search stops there whatever else its budgets allow. A caller whose
   * request may wait in a queue, or whose thread may be starved of CPU, sets
   * it from when it asked, so the answer never comes later than it can use.
   * It caps a level's own time rather than replacing it. Past it the search
   * still answers, from its shallowest iterations, which take well under a
   * millisecond.
   */
  readonly deadlineAt?: number;
  /** Deepest search, in plies. */
  readonly depth?: number;
  /** Node budget. */
  readonly nodes?: number;
  /** Seeds the low levels' choice among moves; the same seed and a depth or node budget give the same move. */
  readonly seed?: number;
  /** Evaluation weights, for baselines and tuning. */
  readonly weights?: EvaluationWeights;
  /**
   * Within the endgame limit, try the exact solver first (a share of the
   * node budget) and play its proved move. On by default at level 8 only:
   * lower levels keep their own strength.
   */
  readonly exactEndgames?: boolean;
}

export interface BestMove {
  readonly move: Move;
  /** Expected final score margin from the mover's view, in points. */
  readonly eval: number;
  /** Principal variation, starting with `move`. */
  readonly pv: readonly Move[];
  /** The deepest search that finished (0 for a proved endgame). */
  readonly depth: number;
  readonly nodes: number;
  /** True when `eval` is the exact final margin with best play (endgame.ts). */
  readonly exact?: boolean;
}

/** Without any budget, a search plays like level 8. */
const DEFAULT_LEVEL: Level = 8;

/**
 * Larger tables only pay off for deep searches; a fresh table per call keeps
 * calls independent. Never sized by time: a time ceiling must not change
 * what a depth or node budget plays.
 */
function tableBits(depth: number): number {
  return depth > 6 ? 18 : 14;
}

/** The move to play in a game that is still going on; throws on an ended game (a caller's bug). */
export function bestMove(state: State, options: SearchOptions = {}): BestMove {
  if (state.position.status !== 'playing') throw new RangeError('the game has ended');
  const level = options.level ?? (hasBudget(options) ? undefined : DEFAULT_LEVEL);
  if (level !== undefined && !isLevel(level)) throw new RangeError('level must be 1 to 8');
  const settings = level === undefined ? undefined : LEVEL_SETTINGS[level];
  const timeMs = options.timeMs;
  const depth = Math.min(options.depth ?? (settings?.depth ?? MAX_DEPTH), MAX_DEPTH);
  const now = performance.now();
  const deadline = Math.min(
    timeMs === undefined ? Infinity : now + timeMs,
    // performance.now() counts from this thread's own origin; the sum is wall time any thread agrees on.
    options.deadlineAt === undefined ? Infinity : options.deadlineAt - performance.timeOrigin,
  );
  let limits: SearchLimits = {
    depth,
    nodes: options.nodes ?? settings?.nodes ?? Infinity,
    deadline,
    // An iteration takes about twice the one before it: past 60 % of the
    // budget the next one would rarely get through its first move.
    softDeadline: deadline === Infinity ? Infinity : now + Math.max(0, deadline - now) * 0.6,
  };
  let spent = 0;
  if ((options.exactEndgames ?? level === 8) && withinEndgameLimit(state)) {
    // A twentieth of the budget at most: most tries prove nothing (see endgame.ts), and the search still needs the rest.
    const budget = Math.min(ENDGAME_NODES, Math.floor(limits.nodes / 20));
    const solved = solveEndgame(state, { nodes: budget, deadline: limits.deadline });
    if (solved !== null) return { move: solved.move, eval: solved.value, pv: [solved.move], depth: 0, nodes: solved.nodes, exact: true };
    spent = budget;
  }
  if (spent > 0) limits = { ...limits, nodes: Math.max(1, limits.nodes - spent) };
  const rules = nodeRules(state.rules);
  const root = nodeOf(state);
  const search = new Search(rules, options.weights ?? ENGINE_WEIGHTS, tableBits(depth));
  const mover = root.toMove;

  const temperature = settings?.temperature ?? 0;
  if (temperature > 0) {
    const values = search.rootValues(root, depth, limits);
    if (values !== null) {
      const move = softmaxChoice(values, temperature, seededRandom(options.seed ?? 0));
      return {
        move: toRulesMove(mover, move),
        eval: values.get(move)!,
        pv: [toRulesMove(mover, move)],
        depth,
        nodes: search.nodes,
      };
    }
  }

  const result = search.iterate(root, limits, options.seed === undefined ? undefined : seededRandom(options.seed));
  return {
    move: toRulesMove(mover, result.move),
    eval: result.value,
    pv: pvMoves(rules, root, result.pv),
    depth: result.depth,
    nodes: result.nodes + spent,
  };
}

function hasBudget(options: SearchOptions): boolean {
  return options.timeMs !== undefined || options.depth !== undefined || options.nodes !== undefined;
}

/** Samples a move with probability proportional to exp(value / temperature). */
export function softmaxChoice(values: ReadonlyMap<number, number>, temperature: number, random: () => number): number {
  let top = -Infinity;
  for (const value of values.values()) top = Math.max(top, value);
  let total = 0;
  const weights: [number, number][] = [];
  for (const [move, value] of values) {
    const weight = Math.exp((value - top) / temperature);
    weights.push([move, weight]);
    total += weight;
  }
  let pick = random() * total;
  for (const [move, weight] of weights) {
    pick -= weight;
    if (pick < 0) return move;
  }
  return weights[weights.length - 1]![0];
}

/** The principal variation as rules moves, each by the player to move at its ply; it stops where the game would end. */
export function pvMoves(rules: NodeRules, root: GameNode, pv: readonly number[]): Move[] {
  const moves: Move[] = [];
  let node = root;
  for (const move of pv) {
    if (node.ended) break;
    const square = squareOfMove(node.toMove, move);
    if (node.squares[square] === 0) break;
    moves.push(toRulesMove(node.toMove, move));
    node = playNode(rules, node, square, dirOfMove(move));
  }
  return moves;
}
