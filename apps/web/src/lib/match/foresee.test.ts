import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, PRESETS, newGame } from '@oanquan/rules';
import { foresee } from './foresee.js';

describe('foresee', () => {
  const start = newGame().position;

  it('tells R9 E1: the last dân falls on square 2 and the quan square 0 is taken, 11 points', () => {
    const seen = foresee(start, DEFAULT_RULES, { square: 1, dir: -1 });
    expect(seen).toMatchObject({ end: 2, captures: [0], points: 11 });
  });

  it('tells E2: the same move under quan non takes nothing', () => {
    expect(foresee(start, PRESETS.vietnam, { square: 1, dir: -1 })).toMatchObject({ end: 2, captures: [], points: 0 });
  });

  it('tells E3: a relay from square 8, then square 3 with 6 dân', () => {
    expect(foresee(start, DEFAULT_RULES, { square: 2, dir: 1 })).toMatchObject({ captures: [3], points: 6 });
  });

  it('foresees nothing for a move that is not legal, and leaves the position as it was', () => {
    const copy = structuredClone(start);
    expect(foresee(start, DEFAULT_RULES, { square: 8, dir: 1 })).toBeNull();
    expect(start).toEqual(copy);
  });
});
