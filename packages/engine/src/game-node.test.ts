// The search's copy of a ply against the rules package, over random games
// under random option sets: same board, quan pieces, mover, ply and end
// (R4.5 repetition aside, which the node leaves to the search), and a score
// margin equal to the R5 score difference.

import fc from 'fast-check';
import { legalMoves, playFast, scorePosition } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { nodeOf, nodeRules, playNode, scoreMargin } from './game-node.js';
import { arbitraryGame, statesOf } from './testing/arbitrary.js';

describe('playNode', () => {
  it('plays every ply as the rules do', () => {
    fc.assert(
      fc.property(arbitraryGame, (game) => {
        const rules = nodeRules(game.rules);
        for (const state of statesOf(game)) {
          const node = nodeOf(state);
          const [s0, s1] = scorePosition(state.position, state.rules);
          expect(scoreMargin(node)).toBe(s0 - s1);
          if (state.position.status !== 'playing') continue;
          for (const move of legalMoves(state)) {
            const expected = playFast(state, move);
            if (typeof expected === 'string') throw new Error(expected);
            const position = expected.position;
            if (position.result?.reason === 'repetition') continue;
            const played = playNode(rules, node, move.square, move.dir);
            expect(played.squares).toEqual(position.squares);
            expect(played.quan).toBe((position.quan[0] ? 1 : 0) | (position.quan[1] ? 2 : 0));
            expect(played.toMove).toBe(position.toMove);
            expect(played.ply).toBe(position.ply);
            expect(played.ended).toBe(position.status === 'ended');
            expect(played.stock).toBe(position.captured[0].dan + position.captured[1].dan);
            const [e0, e1] = position.result?.score ?? scorePosition(position, state.rules);
            expect(scoreMargin(played)).toBe(e0 - e1);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
