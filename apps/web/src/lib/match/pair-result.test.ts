import { describe, expect, it } from 'vitest';
import type { MatchSnapshot } from '@oanquan/protocol';
import { pairPointsText, pairResult } from './pair-result.js';

const glicko = (rating: number) => ({ rating, deviation: 80, volatility: 0.06 });
const ended = (winner: 0 | 1 | null, firstWinner: 0 | 1 | null, game: 1 | 2 = 2): Pick<MatchSnapshot, 'pairing' | 'result' | 'ratings'> => ({
  pairing: { game, firstGame: game === 2 ? { winner: firstWinner, before: [glicko(1662), glicko(1410)] } : null },
  result: { reason: 'quan-gone', score: [20, 50], winner },
  ratings: [
    { before: 1433, after: 1279 },
    { before: 1640, after: 1790 },
  ],
});

describe('the result of a rated pair', () => {
  it('counts both games and rates from before game 1 to after game 2', () => {
    expect(pairResult(ended(1, 1))).toEqual({ points: [0, 2], before: [1662, 1410], after: [1279, 1790] });
    expect(pairResult(ended(0, null))!.points).toEqual([1.5, 0.5]);
    expect(pairResult(ended(null, null))!.points).toEqual([1, 1]);
  });

  it('is nothing outside a finished, rated return game', () => {
    expect(pairResult(ended(1, 1, 1))).toBeNull();
    expect(pairResult({ ...ended(1, 1), ratings: null })).toBeNull();
    expect(pairResult({ ...ended(1, 1), result: null })).toBeNull();
    expect(pairResult({ ...ended(1, 1), pairing: null })).toBeNull();
    expect(pairResult({ ...ended(1, 1), pairing: { game: 2, firstGame: null } })).toBeNull();
  });

  it('writes halves as players do', () => {
    expect([0, 0.5, 1, 1.5, 2].map(pairPointsText)).toEqual(['0', '½', '1', '1½', '2']);
  });
});
