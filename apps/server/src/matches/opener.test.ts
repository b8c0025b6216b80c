import { describe, expect, it } from 'vitest';
import { roundWinner } from './opener.js';

describe('roundWinner', () => {
  it.each([
    ['rock', 'scissors', 0],
    ['scissors', 'paper', 0],
    ['paper', 'rock', 0],
    ['scissors', 'rock', 1],
    ['paper', 'scissors', 1],
    ['rock', 'paper', 1],
    ['rock', 'rock', null],
    ['paper', 'paper', null],
    ['scissors', 'scissors', null],
  ] as const)('%s against %s → %s', (a, b, winner) => {
    expect(roundWinner(a, b)).toBe(winner);
  });
});
