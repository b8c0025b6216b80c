// Level 8's losses to the greedy player (issue 29, `bench/greedy-losses.ts`)
// looked like a search that misjudges refills, debts or the end of the game.
// Every root value the search gives at a fixed depth, with the plain score
// difference at its leaves, must be the one a plain alpha-beta over the rules
// gives: a key missing something, a refill or a debt counted wrong, or an
// end of the game scored otherwise than R5 would show here.

import { DEFAULT_RULES, newGame, play, type Move, type State } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { SCORE_ONLY } from './evaluation.js';
import { nodeOf, nodeRules } from './game-node.js';
import { dirOfMove, squareOfMove } from './moves.js';
import { Search } from './search.js';
import { minimaxAt } from './testing/brute-force.js';

/** Level 8 (player 1) lost these to the greedy player: -4 after one refill, and -6 after refills and a borrowing (debts 0/2). */
const LOST_GAMES: readonly (readonly (readonly [number, 1 | -1])[])[] = [
  [[3, 1], [7, -1], [5, -1], [10, -1], [3, 1], [10, -1], [4, 1], [11, -1], [2, 1], [7, -1], [5, -1], [10, -1], [1, 1], [9, 1]],
  [[1, 1], [9, 1], [2, -1], [9, 1], [1, -1], [8, 1], [2, 1], [11, 1], [3, -1], [9, 1], [2, -1], [11, -1], [1, 1], [8, 1], [3, -1], [9, -1]],
];
const DEPTH = 6;

/** Every position of a game where someone is to move. */
function positions(moves: readonly (readonly [number, 1 | -1])[]): State[] {
  let state = newGame({ rules: DEFAULT_RULES, first: 0 });
  const states = [state];
  for (const [square, dir] of moves) {
    const next = play(state, { square, dir } as Move);
    if (!next.ok) throw new Error(`illegal move ${square}${dir}: ${next.code}`);
    state = next.state;
    if (state.position.status === 'playing') states.push(state);
  }
  return states;
}

describe('the search against a plain alpha-beta over the rules', () => {
  it('finds the same value for every root move at a fixed depth, through refills and a borrowing', () => {
    let compared = 0;
    for (const game of LOST_GAMES) {
      for (const state of positions(game)) {
        const root = nodeOf(state);
        const limits = { depth: DEPTH, nodes: Infinity, deadline: Infinity, softDeadline: Infinity };
        const values = new Search(nodeRules(state.rules), SCORE_ONLY).rootValues(root, DEPTH, limits)!;
        for (const [move, value] of values) {
          const child = play(state, { square: squareOfMove(root.toMove, move), dir: dirOfMove(move) } as Move);
          if (!child.ok) throw new Error(child.code);
          expect(value, `ply ${state.position.ply}, move ${move}`).toBe(0 - minimaxAt(child.state, DEPTH - 1));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
