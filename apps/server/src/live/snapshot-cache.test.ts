import { describe, expect, it } from 'vitest';
import type { MatchRow } from '../match-records/match-store.js';
import { SnapshotCache } from './snapshot-cache.js';

const row = (id: string, version: number) => ({ id, version }) as MatchRow;

describe('SnapshotCache', () => {
  it('answers only for the version asked, and never goes back to an older one', () => {
    const cache = new SnapshotCache();
    cache.set(row('m', 5), []);
    expect(cache.get('m', 5)?.match.version).toBe(5);
    expect(cache.get('m', 4)).toBeUndefined();
    expect(cache.get('m', 6)).toBeUndefined();
    cache.set(row('m', 4), []);
    expect(cache.get('m', 5)?.match.version).toBe(5);
    cache.delete('m');
    expect(cache.get('m', 5)).toBeUndefined();
  });

  it('forgets the least recently stored match beyond its capacity', () => {
    const cache = new SnapshotCache(2);
    cache.set(row('a', 1), []);
    cache.set(row('b', 1), []);
    cache.set(row('c', 1), []);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });
});
