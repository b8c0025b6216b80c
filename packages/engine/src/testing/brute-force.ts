// Plain minimax over `@oanquan/rules` itself, to the end of the game: no
// table, no pruning, repetition counted by the rules' own history. Only for
// tiny positions in tests (excluded from the build).

import { legalMoves, playFast, scorePosition, type State } from '@oanquan/rules';

/** The final margin from the mover's view with best play from both sides. */
export function bruteForce(state: State): number {
  const p = state.position;
  if (p.status !== 'playing') {
    const [s0, s1] = p.result!.score;
    return p.toMove === 0 ? s0 - s1 : s1 - s0;
  }
  let best = -Infinity;
  for (const move of legalMoves(state)) {
    const next = playFast(state, move);
    if (typeof next === 'string') throw new Error(next);
    best = Math.max(best, 0 - bruteForce(next));
  }
  return best;
}

/**
 * Alpha-beta over `@oanquan/rules` to a fixed depth, a leaf worth its R5
 * score difference as if the game ended there, from the mover's view: what
 * the engine's search with score-only weights must find at the same depth.
 */
export function minimaxAt(state: State, depth: number, alpha = -Infinity, beta = Infinity): number {
  const p = state.position;
  if (p.status !== 'playing' || depth === 0) {
    const [s0, s1] = p.result?.score ?? scorePosition(p, state.rules);
    return p.toMove === 0 ? s0 - s1 : s1 - s0;
  }
  let best = -Infinity;
  for (const move of legalMoves(state)) {
    const next = playFast(state, move);
    if (typeof next === 'string') throw new Error(next);
    const value = 0 - minimaxAt(next, depth - 1, -beta, -alpha);
    if (value > best) best = value;
    if (value > alpha) alpha = value;
    if (alpha >= beta) break;
  }
  return best;
}
