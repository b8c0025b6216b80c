import { describe, expect, it } from 'vitest';
import { countsForRating } from './rating-service.js';

describe('which endings count for rating', () => {
  it('needs two moves from each side, and a real result', () => {
    const resign = { winner: 0, reason: 'resign', score: null } as const;
    expect(countsForRating(resign, 3)).toBe(false);
    expect(countsForRating(resign, 4)).toBe(true);
    expect(countsForRating({ winner: 1, reason: 'timeout', score: null }, 4)).toBe(true);
    expect(countsForRating({ winner: null, reason: 'abort', score: null }, 40)).toBe(false);
    // Both players left: nobody won, nothing is learned about either.
    expect(countsForRating({ winner: null, reason: 'abandon', score: null }, 40)).toBe(false);
    expect(countsForRating({ winner: 0, reason: 'abandon', score: null }, 40)).toBe(true);
  });

  it('counts a return game of a rated pairing however short, but never an abort or a match both left', () => {
    expect(countsForRating({ winner: 0, reason: 'resign', score: null }, 1, true)).toBe(true);
    expect(countsForRating({ winner: 1, reason: 'timeout', score: null }, 0, true)).toBe(true);
    expect(countsForRating({ winner: null, reason: 'abort', score: null }, 0, true)).toBe(false);
    expect(countsForRating({ winner: null, reason: 'abandon', score: null }, 10, true)).toBe(false);
  });
});
