import { PRESETS } from '@oanquan/rules';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, startRedis, type OwnRedis } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, newRoom, scriptedGame, startApp, TestClient } from '../testing/live.js';
import { ReconnectingPlayer } from '../testing/reconnecting-player.js';
import type { App } from '../app.js';

describe.runIf(postgresAvailable)('match events with Redis', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const ownRedis = async (): Promise<OwnRedis> => {
    const redis = await startRedis();
    cleanups.push(redis.stop);
    return redis;
  };

  /** Two processes sharing Redis, and a room made on the first by a guest of the first, with a guest of the second. */
  const roomAcrossTwo = async () => {
    const redis = await ownRedis();
    const cluster = await startCluster({ REDIS_URL: redis.url, MATCH_FEED_CHECK_MS: '300' });
    cleanups.push(cluster.stop);
    const [one, two] = cluster.servers;
    const [alice, bob] = await Promise.all([newGuest(one.url), newGuest(two.url)]);
    return { redis, cluster, one, two, alice, bob, room: await newRoom(one.url, alice.token) };
  };

  it("reach the mover before the move's acknowledgement, for a whole game", async () => {
    const redis = await ownRedis();
    const { url, app } = await startApp('postgresql', {}, { REDIS_URL: redis.url });
    cleanups.push(() => (app as App).close());
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token);
    const a = await TestClient.connect(url, alice.token);
    const b = await TestClient.connect(url, bob.token);
    cleanups.push(() => a.close(), () => b.close());
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    await a.waitForVersion(started.version);

    const moves = scriptedGame(PRESETS.classic, 0);
    let late = 0;
    for (const [i, move] of moves.entries()) {
      const mover = i % 2 === 0 ? a : b;
      // The events are interleaved with the other seat's, so the order is read per move.
      const ack = await mover.request('move', { matchId: room.matchId, moveId: `m${i}`, version: mover.version, ...move });
      if (!ack.ok) throw new Error(`${ack.code} at ply ${i + 1}`);
      if (!mover.events.some((e) => e.version === ack.version)) late++;
      await (i % 2 === 0 ? b : a).waitForVersion(ack.version);
    }
    expect(late).toBe(0);
    expect(a.events.at(-1)?.event.type).toBe('ended');
  }, 60_000);

  it("reach a rematch's players whole, though its first events cross on their way", async () => {
    const { redis, one, two, alice, bob, room } = await roomAcrossTwo();
    const a = await TestClient.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    cleanups.push(() => a.close(), () => b.close());
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    expect(await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' })).toMatchObject({ ok: true });
    expect(await a.request('resign', { matchId: room.matchId })).toMatchObject({ ok: true });
    await a.request('rematch', { matchId: room.matchId });
    await b.request('rematch', { matchId: room.matchId });
    const rematchOf = (client: TestClient) => client.events.find((e) => e.event.type === 'rematch')?.event;
    await a.until(() => !!rematchOf(a) && !!rematchOf(b), 'the rematch on both processes');
    const next = rematchOf(b)!;
    if (next.type !== 'rematch') throw new Error('no rematch');

    // Process one's first event of the new match waits in Redis while process two commits the one after it.
    await redis.command('CLIENT', 'PAUSE', '1500', 'WRITE');
    expect(await a.request('opener:choose', { matchId: next.matchId, choice: 'rock' })).toMatchObject({ ok: true, version: 1 });
    expect(await b.request('opener:choose', { matchId: next.matchId, choice: 'paper' })).toMatchObject({ ok: true });
    const versions = () => [...new Set(b.events.filter((e) => e.matchId === next.matchId).map((e) => e.version))].sort((x, y) => x - y);
    await b.until(() => versions()[0] === 1, "process one's event, once Redis passes it", 8000);
    expect(versions()).toEqual(Array.from({ length: versions().length }, (_, i) => i + 1));
  }, 60_000);

  it('reach the other processes though the committing process died before publishing them', async () => {
    const { redis, cluster, one, two, alice, bob, room } = await roomAcrossTwo();
    const a = await ReconnectingPlayer.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    cleanups.push(() => a.close(), () => b.close());
    await a.join(room.code);
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    await b.waitForVersion(started.version);

    // Process one commits and answers, but its message to Redis waits behind the pause: then it dies.
    await redis.command('CLIENT', 'PAUSE', '3000', 'WRITE');
    const [first] = scriptedGame(PRESETS.classic, 0);
    const ack = await a.request('move', { matchId: room.matchId, moveId: 'a1', version: started.version, ...first });
    expect(ack).toEqual({ ok: true, version: started.version + 1 });
    one.child.kill('SIGKILL');
    await one.exited;

    // Process two finds the version missing and delivers it from the database.
    await b.waitForVersion(started.version + 1, 8000);
    expect(b.events.filter((e) => e.version === started.version + 1).map((e) => e.event.type)).toEqual(['moved']);

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      expect((await client.query('SELECT move_id FROM move WHERE match_id = $1', [room.matchId])).rows).toEqual([{ move_id: 'a1' }]);
    } finally {
      await client.end();
    }
  }, 90_000);
});
