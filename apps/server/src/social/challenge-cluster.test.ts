import type { AddressInfo } from 'node:net';
import { testRateLimits } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig, paths } from '../config.js';
import { openDatabase } from '../db/database.js';
import { startRedis, type OwnRedis } from '../testing/cluster.js';
import { postgresAvailable, scratchTarget } from '../testing/databases.js';
import { api, newGuest, TestClient } from '../testing/live.js';
import { listen, made, until } from '../testing/challenges.js';

describe.skipIf(!postgresAvailable)('challenges across two processes sharing Redis and PostgreSQL', () => {
  const apps: App[] = [];
  const clients: TestClient[] = [];
  let drop: () => Promise<void> = async () => {};
  let redis: OwnRedis | undefined;
  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(apps.map((app) => app.close()));
    await drop();
    await redis?.stop();
  });

  it('an open challenge is listed, taken and removed on the other process; a direct one reaches its target there, lives while both are connected, and is answered', async () => {
    const scratch = await scratchTarget('postgresql');
    drop = scratch.drop;
    redis = await startRedis();
    const config = loadConfig({ ...process.env, PORT: '0', ...testRateLimits, REDIS_URL: redis.url, CHALLENGE_TICK_MS: '100', CHALLENGE_GRACE_MS: '600' });
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(config, await openDatabase(scratch.target, { migrationsDir: paths.migrations }));
      await app.http.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
    const [one, two] = apps.map((app) => `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`) as [string, string];
    const person = async (url: string) => {
      const who = await newGuest(url);
      await api(url, '/api/rooms', { token: who.token, body: {} });
      const client = await TestClient.connect(url, who.token);
      clients.push(client);
      return { ...who, client, heard: listen(client) };
    };
    const [alice, bob, carol] = [await person(one), await person(two), await person(two)];

    await carol.client.request('lobby:watch', {});
    const offered = made(await alice.client.request('challenge:open', {}));
    await until(() => carol.heard.added.some((c) => c.id === offered.id), 'the open challenge in the lobby of the other process');
    const taken = await bob.client.request('challenge:accept', { id: offered.id });
    if (!taken.ok) throw new Error(taken.code);
    await until(() => alice.heard.accepted.length === 1, 'the creator on the first process sent to the room');
    expect(alice.heard.accepted[0]).toMatchObject({ roomCode: taken.roomCode });
    await until(() => carol.heard.removed.some((g) => g.id === offered.id), 'the taken challenge gone from the other lobby');

    const direct = made(await alice.client.request('challenge:direct', { to: carol.player.id }));
    await until(() => carol.heard.received.some((c) => c.id === direct.id), 'the direct challenge on the other process');
    // Each is renewed by the process they are connected to: three graces on, it still stands.
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(alice.heard.gone).toEqual([]);
    expect(await carol.client.request('challenge:decline', { id: direct.id })).toEqual({ ok: true });
    await until(() => alice.heard.gone.length === 1, 'the refusal on the first process');
    expect(alice.heard.gone[0]).toEqual({ id: direct.id, reason: 'declined' });
  }, 90_000);
});
