import { newGame, startPosition, stateFromPosition } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { themesOf } from './themes.js';

describe('themesOf', () => {
  it('sees a chain that takes a quan and empties the opponent’s row near the end', () => {
    // Square 5 toward the right drops on 6, then captures 8, 10 and the quan square 0 across the gaps.
    const state = stateFromPosition({
      ...startPosition(0),
      squares: [0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 3, 0],
      captured: [
        { dan: 22, quan: 0 },
        { dan: 22, quan: 0 },
      ],
    });
    expect(themesOf(state, [{ square: 5, dir: 1 }])).toEqual(['capture-chain', 'quan', 'refill', 'endgame', 'sweep']);
  });

  it('sees nothing in a quiet opening move', () => {
    expect(themesOf(newGame(), [{ square: 1, dir: 1 }])).toEqual([]);
  });
});
