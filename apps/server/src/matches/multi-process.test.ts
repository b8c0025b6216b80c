import pg from 'pg';
import { PRESETS } from '@oanquan/rules';
import { freePort } from '@oanquan/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, newRoom, scriptedGame, TestClient } from '../testing/live.js';
import { metricSample } from '../testing/metric-sample.js';

describe.runIf(postgresAvailable)('two server processes sharing one PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  const clients: TestClient[] = [];
  const metricsPorts: number[] = [];

  beforeAll(async () => {
    metricsPorts.push(await freePort(), await freePort());
    cluster = await startCluster({}, { nodeEnv: (index) => ({ METRICS_PORT: String(metricsPorts[index]), METRICS_HOST: '127.0.0.1' }) });
  }, 120_000);

  /** One process's hot statements so far, by name. */
  const statements = async (index: number, name: string) =>
    metricSample(await (await fetch(`http://127.0.0.1:${metricsPorts[index]}/metrics`)).text(), 'oanquan_hot_statements_total', `{statement="${name}"}`) ?? 0;
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

  it('apply exactly one move per version when one player sends a move to both processes at once, ply after ply', async () => {
    const [one, two] = cluster.servers;
    const [alice, bob] = await Promise.all([newGuest(one.url), newGuest(two.url)]);
    const sockets = await Promise.all([
      TestClient.connect(one.url, alice.token),
      TestClient.connect(two.url, alice.token),
      TestClient.connect(one.url, bob.token),
      TestClient.connect(two.url, bob.token),
    ]);
    clients.push(...sockets);
    const [a1, a2, b1, b2] = sockets;
    const room = await newRoom(one.url, alice.token);
    await a1.request('room:join', { code: room.code });
    await b2.request('room:join', { code: room.code });
    await a1.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b2.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    let version = started.version;
    const game = scriptedGame(PRESETS.classic, 0);
    const plies = Math.min(game.length - 1, 12);
    for (let i = 0; i < plies; i++) {
      const [x, y] = i % 2 ? [b1, b2] : [a1, a2];
      const payload = (moveId: string) => ({ matchId: room.matchId, moveId, version, ...game[i]! });
      const acks = await Promise.all([x.request('move', payload(`one-${i}`)), y.request('move', payload(`two-${i}`))]);
      const taken = acks.filter((ack) => ack.ok);
      expect(taken).toHaveLength(1);
      const refused = acks.find((ack) => !ack.ok);
      expect(['STALE_VERSION', 'NOT_YOUR_TURN']).toContain(refused && !refused.ok ? refused.code : null);
      version = (taken[0] as { version: number }).version;
    }

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const moves = await client.query<{ ply: number }>('SELECT ply FROM move WHERE match_id = $1 ORDER BY ply', [room.matchId]);
      expect(moves.rows.map((r) => r.ply)).toEqual(Array.from({ length: plies }, (_, i) => i + 1));
      const events = await client.query<{ version: number }>('SELECT version FROM match_event WHERE match_id = $1 ORDER BY version', [room.matchId]);
      expect(events.rows.map((r) => r.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    } finally {
      await client.end();
    }
  }, 60_000);

  it("decide each move from the game as the other process's event left it, without reading the match again", async () => {
    const [one, two] = cluster.servers;
    const [alice, bob] = await Promise.all([newGuest(one.url), newGuest(two.url)]);
    const a = await TestClient.connect(one.url, alice.token);
    const b = await TestClient.connect(two.url, bob.token);
    clients.push(a, b);
    const room = await newRoom(one.url, alice.token);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const started = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!started.ok) throw new Error(started.code);
    const game = scriptedGame(PRESETS.classic, 0);
    let version = started.version;
    // As a player does: the next move is sent once the other's event has come (through Redis to the other process).
    const play = async (ply: number) => {
      const [mover, other] = ply % 2 ? [b, a] : [a, b];
      const ack = await mover.request('move', { matchId: room.matchId, moveId: `m${ply}`, version, ...game[ply]! });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
      await other.until(() => other.events.some((e) => e.matchId === room.matchId && e.version === version), `ply ${ply} on the other process`);
    };
    // The first move on each process may read the match (it started on one of them).
    await play(0);
    await play(1);
    const reads = ['live-columns', 'match-row'];
    const before = await Promise.all([0, 1].flatMap((i) => [...reads, 'commit-move'].map((name) => statements(i, name))));
    const plies = Math.min(game.length - 1, 12);
    for (let ply = 2; ply < plies; ply++) await play(ply);
    const after = await Promise.all([0, 1].flatMap((i) => [...reads, 'commit-move'].map((name) => statements(i, name))));
    const delta = after.map((n, i) => n - before[i]!);
    // Per process: no catch-up read, no row read, one commit per move of its own player.
    expect(delta).toEqual([0, 0, (plies - 2) / 2, 0, 0, (plies - 2) / 2]);
  }, 60_000);

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
