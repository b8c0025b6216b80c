import pg from 'pg';
import { PRESETS } from '@oanquan/rules';
import { freePort, privatePostgres, type ServerProcess, startServerProcess } from '@oanquan/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { openedGame, scriptedGame, TestClient } from '../testing/live.js';
import { metricSample } from '../testing/metric-sample.js';
import { resendUntilAccepted } from '../testing/resend-move.js';

/** How long the database stays down: long enough for every path to meet it. */
const outageMs = 10_000;

describe('PostgreSQL stopped for 10 s and started again', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('refuses moves with UNAVAILABLE and says not ready meanwhile; then the same moves succeed, none lost or doubled', async () => {
    const database = await privatePostgres();
    cleanups.push(database.destroy);
    const metricsPort = await freePort();
    const server: ServerProcess = await startServerProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort) });
    // What Prometheus reads for the database-unreachable alert.
    const databaseUp = async () => metricSample(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), 'oanquan_database_up');
    cleanups.push(async () => {
      server.child.kill('SIGKILL');
      await server.exited;
    });

    const { alice, bob, room, a, b, version: openedAt } = await openedGame([server.url, server.url]);
    cleanups.push(async () => {
      a.close();
      b.close();
    });

    const moves = scriptedGame(PRESETS.classic, 0, 5);
    const half = Math.floor(moves.length / 2);
    let version = openedAt;
    const send = (i: number) => (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...moves[i]! });
    const acked: string[] = [];
    const playMove = async (i: number) => {
      const ack = await send(i);
      if (!ack.ok) throw new Error(`move ${i}: ${ack.code}`);
      version = ack.version;
      acked.push(`m${i}`);
    };
    for (let i = 0; i < half; i++) await playMove(i);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await databaseUp()).toBe(1);

    await database.stop();
    const stoppedAt = Date.now();
    // The mover keeps resending the same move, as the web client does on a retryable refusal.
    const refusals = new Set<string>();
    let readiness: Array<{ status: number; body: unknown }> = [];
    while (Date.now() - stoppedAt < outageMs) {
      const ack = await send(half);
      expect(ack.ok).toBe(false);
      if (!ack.ok) refusals.add(ack.code);
      const ready = await fetch(`${server.url}/api/health`);
      readiness.push({ status: ready.status, body: await ready.json() });
      expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // The REST error path and the socket handshake say the same, never INTERNAL.
    const rest = await fetch(`${server.url}/api/rooms/${room.code}`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(rest.status).toBe(503);
    expect(await rest.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    const handshake = await TestClient.connect(server.url, bob.token).then(
      (client) => (client.close(), undefined),
      (error: { data?: unknown }) => error.data,
    );
    expect(handshake).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    expect([...refusals]).toEqual(['UNAVAILABLE']);
    expect(await databaseUp()).toBe(0);
    expect(readiness.length).toBeGreaterThan(3);
    expect(new Set(readiness.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify({ status: 503, body: { status: 'not ready', database: 'postgresql', reason: 'database' } })]));

    await database.start();
    const restartedAt = Date.now();
    const accepted = await resendUntilAccepted(() => send(half), 20_000);
    const resumed = accepted.at;
    version = accepted.version;
    acked.push(`m${half}`);
    console.log(`database restart: play resumed ${resumed - restartedAt} ms after PostgreSQL was back (${resumed - stoppedAt} ms after it stopped)`);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await databaseUp()).toBe(1);
    // A resend of a move already applied answers its earlier outcome and changes nothing.
    expect(await send(half)).toEqual({ ok: true, version });

    for (let i = half + 1; i < moves.length; i++) await playMove(i);
    await Promise.all([a.waitForVersion(version), b.waitForVersion(version)]);
    expect(a.events.at(-1)?.event.type).toBe('ended');

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const recorded = await client.query<{ move_id: string }>('SELECT move_id FROM move WHERE match_id = $1 ORDER BY ply', [room.matchId]);
      expect(recorded.rows.map((row) => row.move_id)).toEqual(acked);
      expect(acked).toHaveLength(moves.length);
      const versions = await client.query<{ version: number }>('SELECT version FROM match_event WHERE match_id = $1 ORDER BY version', [room.matchId]);
      expect(versions.rows.map((row) => row.version)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    } finally {
      await client.end();
    }
    expect(server.child.exitCode).toBeNull();

    // Each line about the refused move names the match and the player; nothing was logged as a bug.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; matchId?: string; playerId?: string; level: number });
    const refused = lines.filter((line) => line.msg === 'database unreachable' && line.matchId !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    for (const line of refused) expect(line).toMatchObject({ matchId: room.matchId, playerId: alice.player.id });
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
  }, 120_000);
});
