import { describe, expect, it } from 'vitest';
import { createAccountRequest, createRoomRequest, movePayload, poolTimeControl, queuePools, rulesChoice, syncPayload } from './index.js';

describe('the edge schemas', () => {
  const move = { matchId: '0b7e8f1c-2d3a-4b5c-8d6e-7f8091a2b3c4', moveId: 'm-1', version: 3, square: 9, dir: -1 };

  it('accept a well-formed move and refuse anything else', () => {
    expect(movePayload.parse(move)).toEqual(move);
    for (const bad of [
      { ...move, dir: 2 },
      { ...move, square: 12 },
      { ...move, square: 1.5 },
      { ...move, version: -1 },
      { ...move, version: 2 ** 31 },
      { ...move, version: 1e15 },
      { ...move, moveId: '' },
      { ...move, moveId: 'x'.repeat(65) },
      { ...move, matchId: 'not-a-uuid' },
      { ...move, player: 0 },
    ]) {
      expect(movePayload.safeParse(bad).success).toBe(false);
    }
  });

  it('bound a version to what the database holds', () => {
    const sync = { matchId: move.matchId, version: 2 ** 31 - 1 };
    expect(syncPayload.parse(sync)).toEqual(sync);
    for (const version of [2 ** 31, 1e15, 2 ** 53]) expect(syncPayload.safeParse({ ...sync, version }).success).toBe(false);
  });

  it('fill a room request with the classic preset, no clock and unrated', () => {
    expect(createRoomRequest.parse({})).toEqual({ rules: { preset: 'classic' }, timeControl: null, rated: false });
    expect(rulesChoice.safeParse({ options: { quanNon: 51 } }).success).toBe(false);
    expect(rulesChoice.safeParse({ preset: 'classic', options: {} }).success).toBe(false);
  });

  it('refuse a rated friend room: rated games come only from the public queue', () => {
    expect(createRoomRequest.parse({ rated: false }).rated).toBe(false);
    const refused = createRoomRequest.safeParse({ rated: true });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/public queue/);
  });

  it('name the queue pools by minutes and increment', () => {
    expect(queuePools.map(poolTimeControl)).toEqual([
      { initialSeconds: 180, incrementSeconds: 2 },
      { initialSeconds: 300, incrementSeconds: 3 },
      { initialSeconds: 600, incrementSeconds: 5 },
    ]);
  });

  it('accept usernames of letters of any script, digits, _ and -, trimmed and composed; refuse the rest', () => {
    const account = (username: string, password = 'long enough') => createAccountRequest.safeParse({ username, password });
    // "Tư" typed with a combining horn and grave is stored composed, as one types it elsewhere.
    expect(account('  Bà_Tu\u031b-9 ').data?.username).toBe('Bà_Tư-9');
    for (const username of ['ab', 'x'.repeat(25), 'with space', 'dot.name', 'tab\tname', '<script>']) expect(account(username).success).toBe(false);
    expect(account('fine_name', 'short').success).toBe(false);
    expect(account('fine_name', 'x'.repeat(257)).success).toBe(false);
    expect(createAccountRequest.safeParse({ username: 'fine_name', password: 'long enough', admin: true }).success).toBe(false);
  });
});
