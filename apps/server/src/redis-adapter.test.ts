import type { AddressInfo } from 'node:net';
import type { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from './app.js';
import { loadConfig } from './config.js';
import { migratedDatabase } from './testing/databases.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('two server processes sharing Redis', () => {
  const apps: App[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  async function start(): Promise<{ app: App; url: string }> {
    const config = loadConfig({ ...process.env, REDIS_URL: redisUrl, PORT: '0', HOST: '127.0.0.1' });
    const app = await buildApp(config, await migratedDatabase('pglite'));
    apps.push(app);
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}` };
  }

  it('deliver a broadcast made on one to the sockets of the other', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    const client = connect(b.url, { transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => {
        client.once('connect', resolve);
        client.once('connect_error', reject);
      });
      const received = new Promise((resolve) => client.once('hello', resolve));
      (a.app.io as unknown as Server).emit('hello', { from: 'a' });
      await expect(received).resolves.toEqual({ from: 'a' });
    } finally {
      client.close();
    }
  });
});
