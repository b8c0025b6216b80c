// Refill spirals (issue 29.1): under `emptyQuanIsGap`, with both quan pieces
// taken, a line of captures and refills can bring a board and the banked
// difference back while the stocks and debts have moved. The search once
// scored such a return as a repetition ending the game at the margin of the
// moment it closed, so the same cycle looked worth 15 points entered at one
// node and 5 at the next: level 8 walked into it again and again, paying a
// refill every four plies, and lost −104 to 174 to a one-ply greedy player.

import { newGame, play, resolveRules, type Move, type State } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { bestMove } from './best-move.js';
import { greedyMove } from './testing/greedy.js';

const RULES = resolveRules({ emptyQuanIsGap: true });
/** About 100 ms of level 8 on a quiet core, as a node budget so the games are the same on any machine. */
const NODES = 200_000;

function after(moves: readonly (readonly [number, 1 | -1])[]): State {
  let state = newGame({ rules: RULES, first: 0 });
  for (const [square, dir] of moves) {
    const next = play(state, { square, dir } as Move);
    if (!next.ok) throw new Error(`illegal move ${square}${dir}`);
    state = next.state;
  }
  return state;
}

/** Level 8 (as player 0) against the greedy player to the end; player 0's margin. */
function playOut(state: State): { margin: number; plies: number } {
  while (state.position.status === 'playing') {
    const move = state.position.toMove === 0 ? bestMove(state, { level: 8, nodes: NODES, timeMs: 60_000 }).move : greedyMove(state);
    const next = play(state, move);
    if (!next.ok) throw new Error(next.code);
    state = next.state;
  }
  const [s0, s1] = state.position.result!.score;
  return { margin: s0 - s1, plies: state.position.ply };
}

describe('refill spirals', () => {
  // The lost game's first twelve plies: both quan pieces are gone, player 1's
  // row is empty and 5 dân lie in square 6; level 8 played 4+ here and on
  // every fourth ply after it, through 36 refills, 152 dân of debt and 161 plies.
  const spiral: [number, 1 | -1][] = [[1, 1], [9, 1], [2, -1], [9, 1], [1, 1], [8, -1], [5, -1], [7, -1], [4, -1], [8, 1], [4, 1], [7, -1]];

  it('level 8 does not enter the spiral it lost in', () => {
    const game = playOut(after(spiral));
    expect(game.margin).toBeGreaterThan(0);
  }, 60_000);

  it('level 8 wins from both openings the greedy player beat it in', () => {
    for (const opening of [[[1, 1]], [[2, -1]]] as [number, 1 | -1][][]) {
      const game = playOut(after(opening));
      expect(game.margin, `opening ${opening[0]!.join(' ')}`).toBeGreaterThan(0);
    }
  }, 120_000);
});
