// The levels' budgets: depth and nodes, so that a level plays the same move
// on any machine, and the two ends of the ladder against a player who takes
// the biggest capture one ply ahead.

import { DEFAULT_RULES, newGame, playFast, type State } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { enginePlayer, pairedMatch } from '../bench/match.js';
import { bestMove } from './best-move.js';
import { LEVELS, LEVEL_SETTINGS } from './levels.js';
import { greedyMove } from './testing/greedy.js';

const greedy = (state: State) => greedyMove(state);

function midgame(): State {
  let state = newGame();
  for (let i = 0; i < 8; i++) {
    const next = playFast(state, bestMove(state, { level: 4, seed: i }).move);
    if (typeof next === 'string') throw new Error(next);
    state = next;
  }
  return state;
}

describe('levels', () => {
  it('budgets every level in depth or nodes, and rates them in order', () => {
    for (const level of LEVELS) {
      const settings = LEVEL_SETTINGS[level];
      expect(settings.depth < 64 || settings.nodes !== undefined, `level ${level}`).toBe(true);
      if (level > 1) expect(settings.rating).toBeGreaterThan(LEVEL_SETTINGS[(level - 1) as 1]!.rating);
    }
  });

  it('plays the same move with the same seed whatever the time ceiling, within its node budget', () => {
    const state = midgame();
    for (const level of LEVELS) {
      const alone = bestMove(state, { level, seed: 5 });
      const ceiling = bestMove(state, { level, seed: 5, timeMs: 60_000 });
      expect(ceiling.move, `level ${level}`).toEqual(alone.move);
      expect(ceiling.nodes, `level ${level}`).toBe(alone.nodes);
      expect(alone.nodes).toBeLessThanOrEqual(LEVEL_SETTINGS[level].nodes ?? Infinity);
    }
    expect(bestMove(state, { level: 8 }).nodes).toBe(LEVEL_SETTINGS[8].nodes);
  });

  it('level 1 loses most games to the greedy player', () => {
    const score = pairedMatch(DEFAULT_RULES, enginePlayer({ level: 1 }), greedy, 10, 1);
    expect(score.score).toBeLessThan(0.5);
  });

  it('level 8 does not lose to the greedy player', () => {
    const score = pairedMatch(DEFAULT_RULES, enginePlayer({ level: 8 }), greedy, 2, 1);
    expect(score.losses).toBe(0);
  });
});
