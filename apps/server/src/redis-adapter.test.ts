import { Server } from 'socket.io';
import { afterAll, describe, expect, it } from 'vitest';
import { newGuest, startApp, TestClient } from './testing/live.js';
import type { App } from './app.js';
import { attachRedisAdapter, type RedisLink } from './redis-adapter.js';
import { startRedis, type OwnRedis } from './testing/cluster.js';

// One Redis of the file's own, for both groups, stopped once at the end.
let redis: OwnRedis | undefined;
const ownRedis = async () => (redis ??= await startRedis());
afterAll(async () => {
  await redis?.stop();
});

describe('two server instances sharing Redis', () => {
  const apps: App[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('deliver a broadcast made on one to the sockets of the other', async () => {
    const redis = await ownRedis();
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

describe('the channel between processes', () => {
  const links: RedisLink[] = [];
  afterAll(async () => {
    await Promise.all(links.map((link) => link.close()));
  });

  it("brings a process's messages to the others, not back to itself, and drops one it cannot read", async () => {
    const redis = await ownRedis();
    const [a, b] = await Promise.all([attachRedisAdapter(new Server(), redis.url), attachRedisAdapter(new Server(), redis.url)]);
    links.push(a, b);
    const heard: Record<'a' | 'b', string[]> = { a: [], b: [] };
    a.channel.onMessage((message) => heard.a.push(message));
    b.channel.onMessage((message) => {
      if (message === 'unreadable') throw new Error('cannot read it');
      heard.b.push(message);
    });
    // Published by a process of no server's (a stranger with the Redis address, or one of another version).
    await redis.command('PUBLISH', 'oanquan:processes', 'someone|unreadable');
    a.channel.publish('["room-1",[]]');
    b.channel.publish('from b: é');
    for (let waited = 0; (heard.a.length < 1 || heard.b.length < 1) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard.b).toEqual(['["room-1",[]]']);
    expect(heard.a).toEqual(['unreadable', 'from b: é']);
  }, 30_000);
});
