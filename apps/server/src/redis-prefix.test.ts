import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from './app.js';
import { startRedis, type OwnRedis } from './testing/cluster.js';
import { engines } from './testing/databases.js';
import { api, newRoom, startApp, TestClient } from './testing/live.js';

/**
 * Two deployments sharing one Redis, each with its own database and
 * REDIS_PREFIX: each keeps its own limits, and every key and channel it
 * makes in Redis bears its prefix. Processes of one deployment (the same
 * prefix) still count together.
 */
describe.each(engines)('deployments sharing a Redis on %s', (engine) => {
  let redis: OwnRedis;
  const apps: App[] = [];
  const clients: TestClient[] = [];
  let one: string, two: string, oneAgain: string;
  beforeAll(async () => {
    redis = await startRedis();
    one = await deployment('one:');
    two = await deployment('two:');
    oneAgain = await deployment('one:');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(apps.map((app) => app.close()));
    await redis.stop();
  });

  const deployment = async (prefix: string) => {
    const { app, url } = await startApp(engine, {}, { REDIS_URL: redis.url, REDIS_PREFIX: prefix, RATE_LIMIT_GUESTS_PER_HOUR: '1' });
    apps.push(app);
    return url;
  };
  const newSession = (url: string) => api<{ token: string }>(url, '/api/session', { method: 'POST' });

  it('keep their limits apart by prefix, count them together with one, and name everything in Redis with theirs', async () => {
    // One guest an hour for the address: each deployment gives its own, a second process of the first gives none.
    const first = await newSession(one);
    expect(first.status).toBe(201);
    const second = await newSession(two);
    expect(second.status).toBe(201);
    expect((await newSession(oneAgain)).status).toBe(429);
    expect((await newSession(two)).status).toBe(429);

    // Presence and broadcasts in a room of each deployment.
    for (const [url, token] of [
      [one, first.body.token],
      [two, second.body.token],
    ] as const) {
      const room = await newRoom(url, token);
      const client = await TestClient.connect(url, token);
      clients.push(client);
      expect(await client.request('room:join', { code: room.code })).toMatchObject({ ok: true });
      await client.until(() => client.presence.length > 0, 'the presence of its room');
    }

    const keys = (await redis.command('KEYS', '*')) as string[];
    const channels = (await redis.command('PUBSUB', 'CHANNELS', '*')) as string[];
    for (const prefix of ['one:', 'two:']) {
      expect(keys).toEqual(expect.arrayContaining([`${prefix}socket.io`, `${prefix}presence:nodes`]));
      expect(keys.some((key) => key.startsWith(`${prefix}oanquan:limit:`))).toBe(true);
      expect(keys.some((key) => key.startsWith(`${prefix}presence:room:`))).toBe(true);
      expect(channels).toEqual(expect.arrayContaining([`${prefix}oanquan:processes`, `${prefix}socket.io#/#`]));
    }
    expect(keys.filter((key) => !/^(one|two):/.test(key))).toEqual([]);
    expect(channels.filter((channel) => !/^(one|two):/.test(channel))).toEqual([]);
  });
});
