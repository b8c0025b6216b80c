import { PRESETS } from '@oanquan/rules';
import { afterAll, describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { metricSample as sample } from '../testing/metric-sample.js';
import { api, newGuest, newRoom, scriptedGame, startApp, TestClient } from '../testing/live.js';

describe.each(engines)('Prometheus metrics on %s', (engine) => {
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('are served on their own port only, and count sockets, matches, moves, events and refusals', async () => {
    const { url, app } = await startApp(engine, { socketLimits: { rateBurst: 10 } }, { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', RATE_LIMIT_RENAMES_PER_MINUTE: '1' });
    cleanups.push(() => app.close());
    expect(app.metricsPort).toEqual(expect.any(Number));
    const metrics = async (path = '/metrics') => fetch(`http://127.0.0.1:${app.metricsPort}${path}`);
    // Never on the public port, where the proxy forwards everything.
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    expect((await metrics('/other')).status).toBe(404);

    const [alice, bob, carol] = await Promise.all([newGuest(url), newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token);
    const a = await TestClient.connect(url, alice.token);
    const b = await TestClient.connect(url, bob.token);
    const c = await TestClient.connect(url, carol.token);
    cleanups.push(() => a.close(), () => b.close(), () => c.close());
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!opened.ok) throw new Error(opened.code);
    const [first] = scriptedGame(PRESETS.classic, 0);
    expect(await a.request('move', { matchId: room.matchId, moveId: 'm0', version: opened.version, ...first })).toMatchObject({ ok: true });
    expect(await b.request('move', { matchId: room.matchId, moveId: 'm1', version: 1, ...first })).toMatchObject({ ok: false, code: 'STALE_VERSION' });

    // Over a limit once on each edge: Carol floods her socket, Alice renames twice in a minute.
    const flood = await Promise.all(Array.from({ length: 12 }, () => c.request('room:leave', { code: room.code })));
    expect(flood.filter((ack) => !ack.ok && ack.code === 'RATE_LIMITED').length).toBeGreaterThan(0);
    expect((await api(url, '/api/me', { method: 'PATCH', token: alice.token, body: { name: 'Alice' } })).status).toBe(200);
    expect((await api(url, '/api/me', { method: 'PATCH', token: alice.token, body: { name: 'Alicia' } })).status).toBe(429);

    const response = await metrics();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(sample(text, 'oanquan_connected_sockets')).toBe(3);
    expect(sample(text, 'oanquan_live_matches')).toBe(1);
    expect(sample(text, 'oanquan_database_up')).toBe(1);
    expect(text).toContain('# TYPE oanquan_queue_wait_seconds histogram');
    // Opener rounds, the start and the move.
    expect(sample(text, 'oanquan_events_published_total')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'oanquan_move_ack_seconds_count', '{result="ok"}')).toBe(1);
    expect(sample(text, 'oanquan_move_ack_seconds_count', '{result="STALE_VERSION"}')).toBe(1);
    // The accepted move in one statement; the refused one is never committed.
    expect(sample(text, 'oanquan_hot_statements_total', '{statement="commit-move"}')).toBe(1);
    expect(sample(text, 'oanquan_rate_limited_total', '{edge="socket"}')).toBe(flood.filter((ack) => !ack.ok && ack.code === 'RATE_LIMITED').length);
    expect(sample(text, 'oanquan_rate_limited_total', '{edge="http"}')).toBe(1);
    expect(sample(text, 'oanquan_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('oanquan_nodejs_eventloop_lag_p99_seconds');
    if (engine === 'postgresql') {
      expect(sample(text, 'oanquan_db_pool_in_use')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'oanquan_db_pool_waiting')).toBe(0);
    } else {
      expect(text).not.toContain('oanquan_db_pool_in_use');
    }
    // No Redis here.
    expect(text).not.toContain('oanquan_redis_connected');
  });
});
