import { DEFAULT_RULES } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { greedyMove, randomMove } from '../src/testing/greedy.js';
import { pairedMatch, type Player } from './match.js';

const greedy: Player = (state) => greedyMove(state);

describe('a paired match', () => {
  it('counts an opening as decided by the seat when the same seat won both games', () => {
    // A deterministic player against itself plays each opening's game twice, seats swapped: whichever seat won, won both.
    const score = pairedMatch(DEFAULT_RULES, greedy, greedy, 10, 1);
    expect(score.wins).toBe(score.losses);
    expect(score.seatDecided).toBe(score.wins);
    expect(score.seatDecided).toBeGreaterThan(0);
  });

  it('does not count an opening one player won from both seats', () => {
    const random: Player = (state, seed) => randomMove(state, seed);
    const score = pairedMatch(DEFAULT_RULES, greedy, random, 10, 1);
    // These seeds give no draw: every opening is split by the seat or won twice by one player.
    expect(score.draws).toBe(0);
    const sweptByGreedy = (score.wins - score.seatDecided) / 2;
    const sweptByRandom = (score.losses - score.seatDecided) / 2;
    expect(Number.isInteger(sweptByGreedy) && Number.isInteger(sweptByRandom)).toBe(true);
    expect(sweptByGreedy + sweptByRandom + score.seatDecided).toBe(10);
    expect(sweptByGreedy).toBeGreaterThan(sweptByRandom);
  });
});
