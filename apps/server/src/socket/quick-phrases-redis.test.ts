import type { AddressInfo } from 'node:net';
import type { PhraseMessage } from '@oanquan/protocol';
import { testRateLimits } from '@oanquan/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig, paths } from '../config.js';
import { openDatabase } from '../db/database.js';
import { startRedis, type OwnRedis } from '../testing/cluster.js';
import { waitFor } from '../testing/wait-for.js';
import { postgresAvailable, scratchTarget } from '../testing/databases.js';
import { heard, newGuest, openedGame, TestClient } from '../testing/live.js';

// Apart from quick-phrases.test.ts: the Redis this file starts makes it run alone, after
// the files that start no process of their own (vitest.config.ts).
describe.skipIf(!postgresAvailable)('quick phrases across two processes sharing Redis', () => {
  const apps: App[] = [];
  const clients: TestClient[] = [];
  let drop: () => Promise<void> = async () => {};
  let redis: OwnRedis | undefined;
  let one: string, two: string;
  beforeAll(async () => {
    const scratch = await scratchTarget('postgresql');
    drop = scratch.drop;
    redis = await startRedis();
    // A room's spectators may say two phrases a minute together, each player four: no window ends within a test.
    const budgets = { ROOM_PHRASES_SPECTATORS: '2', ROOM_PHRASES_PER_PLAYER: '4', ROOM_PHRASES_WINDOW_MS: '60000' };
    const config = loadConfig({ ...process.env, PORT: '0', ...testRateLimits, REDIS_URL: redis.url, ...budgets });
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(config, await openDatabase(scratch.target, { migrationsDir: paths.migrations }));
      await app.http.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
    [one, two] = apps.map((app) => `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`) as [string, string];
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(apps.map((app) => app.close()));
    await drop();
    await redis?.stop();
  });

  it("reach the opponent and the spectators connected to the other process, and a spectator's stays with the spectators", async () => {
    const { a, b, room } = await openedGame([one, two]);
    const watcher = await TestClient.connect(two, (await newGuest(two)).token);
    const otherWatcher = await TestClient.connect(one, (await newGuest(one)).token);
    clients.push(a, b, watcher, otherWatcher);
    await watcher.request('room:join', { code: room.code });
    await otherWatcher.request('room:join', { code: room.code });
    const [toA, toB, toWatcher, toOther] = [a, b, watcher, otherWatcher].map(heard) as [PhraseMessage[], PhraseMessage[], PhraseMessage[], PhraseMessage[]];
    expect(await watcher.request('phrase:say', { matchId: room.matchId, phrase: 'nice' })).toEqual({ ok: true });
    await waitFor("the spectator's phrase on the other process", () => toOther.length === 1, { everyMs: 20 });
    expect(await a.request('phrase:say', { matchId: room.matchId, phrase: 'hello' })).toEqual({ ok: true });
    await waitFor("the player's phrase on both processes", () => toB.length === 1 && toWatcher.length === 2 && toA.length === 1, { everyMs: 20 });
    expect(toB.map((m) => m.phrase)).toEqual(['hello']);
    expect(toWatcher.map((m) => m.phrase)).toEqual(['nice', 'hello']);
    expect(toA.map((m) => m.phrase)).toEqual(['hello']);
  }, 90_000);

  it("count a room's budgets on both processes together: its spectators' one, and each player's, which no one else spends", async () => {
    const { a, b, alice, room } = await openedGame([one, two]);
    const [watcher, otherWatcher, aliceThere] = await Promise.all([
      TestClient.connect(two, (await newGuest(two)).token),
      TestClient.connect(one, (await newGuest(one)).token),
      TestClient.connect(two, alice.token),
    ]);
    clients.push(a, b, watcher, otherWatcher, aliceThere);
    for (const client of [watcher, otherWatcher, aliceThere]) await client.request('room:join', { code: room.code });
    const say = (client: TestClient) => client.request('phrase:say', { matchId: room.matchId, phrase: 'gg' });
    // Each spectator within their own rate, the room's spectators at two on the processes together.
    expect([await say(watcher), await say(otherWatcher)]).toEqual([{ ok: true }, { ok: true }]);
    expect(await say(watcher)).toMatchObject({ ok: false, code: 'TOO_MANY_PHRASES' });
    // Alice's rate is per process (three on each); her budget in the room is four on both together.
    expect([await say(a), await say(a), await say(a), await say(aliceThere)]).toEqual([{ ok: true }, { ok: true }, { ok: true }, { ok: true }]);
    expect(await say(aliceThere)).toMatchObject({ ok: false, code: 'TOO_MANY_PHRASES' });
    // Neither the spectators nor her opponent spent Bob's.
    expect(await say(b)).toEqual({ ok: true });
  }, 90_000);
});
