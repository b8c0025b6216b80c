import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateRedis } from '@oanquan/testkit';
import { RedisPresenceStore } from './presence-store.js';

describe('the Redis presence store', () => {
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  const stores: RedisPresenceStore[] = [];
  beforeAll(async () => {
    redis = await privateRedis();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await redis?.stop();
  });

  const store = async () => {
    const made = new RedisPresenceStore(redis.url, 300, pino({ level: 'silent' }));
    await made.connect();
    stores.push(made);
    return made;
  };
  const sorted = (entries: string[][]) => entries.map((ids) => [...ids].sort()).sort((x, y) => x.join().localeCompare(y.join()));

  it('shares each process’s players per room, forgets a silent process, sweeps it once, and lets it come back', async () => {
    const [a, b] = [await store(), await store()];
    expect(await a.exchange('r1', ['alice', 'carol'])).toEqual([['alice', 'carol']]);
    expect(sorted(await b.exchange('r1', ['bob']))).toEqual([['alice', 'carol'], ['bob']]);
    expect(await b.exchange('r2', [])).toEqual([]);

    // A process that leaves a room removes only its own entry.
    expect(await b.exchange('r1', [])).toEqual([['alice', 'carol']]);
    expect(sorted(await b.exchange('r1', ['bob']))).toEqual([['alice', 'carol'], ['bob']]);

    // A stops beating: its entries no longer count, and one sweep clears them.
    expect(await b.heartbeat()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.heartbeat()).toBe(false);
    expect(await b.exchange('r1', ['bob'])).toEqual([['bob']]);
    expect(await b.orphanedRooms()).toEqual(['r1']);
    expect(await b.orphanedRooms()).toEqual([]);

    // A was only stalled: its next beat says it was swept, and its rooms are written again.
    expect(await a.heartbeat()).toBe(true);
    expect(await a.heartbeat()).toBe(false);
    expect(sorted(await a.exchange('r1', ['alice']))).toEqual([['alice'], ['bob']]);
  });
});
