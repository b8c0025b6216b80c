import { describe, expect, it } from 'vitest';
import { choosePairs, type Waiting } from './pairing.js';

const now = new Date(Date.UTC(2026, 0, 1, 12));
const waiting = (playerId: string, rating: number, waitedSeconds: number): Waiting => ({
  playerId,
  rating,
  joinedAt: new Date(now.getTime() - waitedSeconds * 1000),
});
const settings = { baseGap: 100, gapPerSecond: 50 };
const ids = (pairs: Array<[Waiting, Waiting]>) => pairs.map(([a, b]) => [a.playerId, b.playerId]);

describe('choosePairs', () => {
  it('pairs each waiting player with the closest rating', () => {
    const pairs = choosePairs([waiting('a', 1500, 3), waiting('b', 1900, 2), waiting('c', 1520, 1), waiting('d', 1880, 0)], now, settings);
    expect(ids(pairs)).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
  });

  it('keeps far-apart players waiting until the accepted gap has widened enough', () => {
    const far = (seconds: number) => choosePairs([waiting('low', 1500, seconds), waiting('high', 2300, seconds)], now, settings);
    expect(far(0)).toEqual([]);
    expect(far(13)).toEqual([]); // 100 + 50 × 13 = 750 < 800
    expect(ids(far(14))).toEqual([['low', 'high']]); // 100 + 50 × 14 = 800
  });

  it('never pairs anyone twice and leaves an odd one out', () => {
    const entries = Array.from({ length: 7 }, (_, i) => waiting(`p${i}`, 1500 + i * 10, i));
    const paired = choosePairs(entries, now, settings).flat().map((w) => w.playerId);
    expect(paired).toHaveLength(6);
    expect(new Set(paired).size).toBe(6);
  });
});
