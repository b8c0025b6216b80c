import type { Server } from 'socket.io';
import { afterAll, describe, expect, it } from 'vitest';
import { newGuest, startApp, TestClient } from './testing/live.js';
import type { App } from './app.js';
import { startRedis, type OwnRedis } from './testing/cluster.js';


describe('two server instances sharing Redis', () => {
  const apps: App[] = [];
  let redis: OwnRedis | undefined;
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await redis?.stop();
  });

  it('deliver a broadcast made on one to the sockets of the other', async () => {
    redis = await startRedis();
    const shared = { REDIS_URL: redis.url };
    const [a, b] = await Promise.all([startApp('pglite', {}, shared), startApp('pglite', {}, shared)]);
    apps.push(a.app, b.app);
    const guest = await newGuest(b.url);
    const client = await TestClient.connect(b.url, guest.token);
    try {
      const received = new Promise((resolve) => client.socket.once('hello' as 'presence', resolve));
      (a.app.io as unknown as Server).emit('hello', { from: 'a' });
      await expect(received).resolves.toEqual({ from: 'a' });
    } finally {
      client.close();
    }
    // Two embedded databases migrate at start-up; on a busy machine that alone takes tens of seconds.
  }, 90_000);
});
