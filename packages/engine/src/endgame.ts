// Exact endgames for play and analysis: when few dân are left on the board,
// the solver (endgame-solver.ts) is given a node budget to prove the final
// margin with best play. A proof is exact; a solve that runs out of budget
// says nothing and the ordinary search decides.
//
// Few dân on the board does not make a small game here: a refill (R4.3)
// brings five back from the stocks whenever a row runs dry, so a line only
// ends when the mandarin squares are emptied (or on the ply limit or a
// repetition). The limit below is where proofs stay likely within the
// budget; `pnpm bench` prints how often they succeed, by dân on the board.

import type { Move, State } from '@oanquan/rules';
import { EndgameSolver, type SolveLimits } from './endgame-solver.js';
import { boardDan, exactNodeOf } from './exact-node.js';
import { fromRulesMove, toRulesMove } from './moves.js';

/** At most this many dân on the board: the solver is tried. */
export const ENDGAME_LIMIT = 10;
/** Nodes a solve may spend in play and analysis. */
export const ENDGAME_NODES = 100_000;

export interface ExactEndgame {
  /** The final margin from the mover's view with best play from both sides. */
  readonly value: number;
  /** A move that keeps it. */
  readonly move: Move;
  readonly nodes: number;
}

export interface EndgameBudget {
  readonly nodes?: number;
  /** A `performance.now()` time. */
  readonly deadline?: number;
}

/** Whether a position is within the endgame limit. */
export function withinEndgameLimit(state: State): boolean {
  return state.position.status === 'playing' && boardDan(exactNodeOf(state)) <= ENDGAME_LIMIT;
}

function limitsOf(budget: EndgameBudget): SolveLimits {
  return { nodes: budget.nodes ?? ENDGAME_NODES, deadline: budget.deadline ?? Infinity };
}

/** The exact result of a position within the limit, or null (beyond the limit, or not proved within the budget). */
export function solveEndgame(state: State, budget: EndgameBudget = {}): ExactEndgame | null {
  if (!withinEndgameLimit(state)) return null;
  const solution = new EndgameSolver(state).solve(limitsOf(budget));
  if (solution === null) return null;
  return { value: solution.value, move: toRulesMove(state.position.toMove, solution.move), nodes: solution.nodes };
}

/** What a solve proved of a value, from the mover's view: bounds (null: none), equal when exact. */
export interface ProvedValue {
  readonly lower: number | null;
  readonly upper: number | null;
}

/**
 * For analysis: what the solver proves of the position before a move and of
 * the move played, both from the mover's view; null beyond the limit.
 */
export function endgameVerdict(state: State, played: Move, budget: EndgameBudget = {}): { position: ProvedValue; played: ProvedValue; best: Move | null } | null {
  if (!withinEndgameLimit(state)) return null;
  const solver = new EndgameSolver(state);
  const limits = limitsOf(budget);
  const position = solver.bounds(limits);
  const move = solver.moveBounds(fromRulesMove(state.position.toMove, played), limits);
  return {
    position: { lower: position.lower, upper: position.upper },
    played: { lower: move.lower, upper: move.upper },
    best: position.move < 0 ? null : toRulesMove(state.position.toMove, position.move),
  };
}
