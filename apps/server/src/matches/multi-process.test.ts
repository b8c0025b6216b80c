import pg from 'pg';
import { PRESETS } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, newRoom, scriptedGame, TestClient } from '../testing/live.js';

describe.runIf(postgresAvailable)('two server processes sharing one PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.stop();
  });

  it('take both hands chosen at the same moment on different processes', async () => {
    const [one, two] = cluster.servers;
    const [alice, bob] = await Promise.all([newGuest(one.url), newGuest(two.url)]);
    const a = await TestClient.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    clients.push(a, b);
    for (let i = 0; i < 5; i++) {
      const room = await newRoom(one.url, alice.token);
      await a.request('room:join', { code: room.code });
      await b.request('room:join', { code: room.code });
      const acks = await Promise.all([
        a.request('opener:choose', { matchId: room.matchId, choice: 'rock' }),
        b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' }),
      ]);
      expect(acks).toEqual([{ ok: true, version: expect.any(Number) }, { ok: true, version: expect.any(Number) }]);
      await a.until(() => a.events.some((e) => e.matchId === room.matchId && e.event.type === 'started'), 'the start');
    }
  });

  it('end a timed-out match exactly once, and players on either process see every event', async () => {
    const [one, two] = cluster.servers;
    const [alice, bob] = await Promise.all([newGuest(one.url), newGuest(two.url)]);
    const room = await newRoom(one.url, alice.token, { timeControl: { initialSeconds: 1, incrementSeconds: 0 } });
    const a = await TestClient.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    clients.push(a, b);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'paper' });
    if (!started.ok) throw new Error(started.code);
    // Seat 1 makes the first move (no clock runs before it), which starts seat 0's clock.
    const [first] = scriptedGame(PRESETS.classic, 1);
    expect(await b.request('move', { matchId: room.matchId, moveId: 'b1', version: started.version, ...first })).toMatchObject({ ok: true });

    // Nobody moves again: both processes' timers and sweeps race to end the match.
    const ended = (c: TestClient) => c.events.some((e) => e.event.type === 'ended');
    await Promise.all([a.until(() => ended(a), 'the timeout on process one', 8000), b.until(() => ended(b), 'the timeout on process two', 8000)]);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // another sweep round on both

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const events = await client.query<{ type: string }>("SELECT payload->'event'->>'type' AS type FROM match_event WHERE match_id = $1 ORDER BY version", [room.matchId]);
      expect(events.rows.filter((r) => r.type === 'ended')).toHaveLength(1);
      const match = await client.query('SELECT status, winner, end_reason FROM match WHERE id = $1', [room.matchId]);
      expect(match.rows[0]).toEqual({ status: 'ended', winner: 1, end_reason: 'timeout' });
    } finally {
      await client.end();
    }
    expect(b.events.map((e) => e.version)).toEqual(a.events.slice(a.events.length - b.events.length).map((e) => e.version));
  }, 60_000);
});
