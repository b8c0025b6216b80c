import { DEFAULT_GLICKO } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { ratePuzzleTry } from './puzzle-rating.js';

describe('ratePuzzleTry', () => {
  const game = { solver: DEFAULT_GLICKO, puzzle: { rating: 1500, deviation: 250, volatility: 0.06 } };

  it('raises the solver and lowers the puzzle on a solve, and the other way on a fail', () => {
    const solved = ratePuzzleTry(game, true);
    expect(solved.solver.rating).toBeGreaterThan(1500);
    expect(solved.puzzle.rating).toBeLessThan(1500);
    const failed = ratePuzzleTry(game, false);
    expect(failed.solver.rating).toBeLessThan(1500);
    expect(failed.puzzle.rating).toBeGreaterThan(1500);
  });

  it('moves a sure solver less than an unsure one, and gains little from an easy puzzle', () => {
    const sure = ratePuzzleTry({ ...game, solver: { rating: 1500, deviation: 60, volatility: 0.06 } }, true);
    expect(sure.solver.rating - 1500).toBeLessThan(ratePuzzleTry(game, true).solver.rating - 1500);
    const easy = ratePuzzleTry({ ...game, puzzle: { rating: 900, deviation: 60, volatility: 0.06 } }, true);
    expect(easy.solver.rating - 1500).toBeLessThan(ratePuzzleTry(game, true).solver.rating - 1500);
  });
});
