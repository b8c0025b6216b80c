import type { ArenaPaired, ArenaView } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { appForSuite } from '../testing/suite-app.js';
import { api, newAccount, newGuest, TestClient } from '../testing/live.js';

/** A real client that also records the arena events it is sent. */
async function arenaClient(url: string, token: string) {
  const client = await TestClient.connect(url, token);
  const seen = { views: [] as ArenaView[], paired: [] as ArenaPaired[] };
  client.socket.on('arena:standings', (view) => void seen.views.push(view));
  client.socket.on('arena:paired', (paired) => void seen.paired.push(paired));
  return Object.assign(client, seen);
}

describe.each(engines)('an arena over sockets on %s', (engine) => {
  const suite = appForSuite(engine, {}, { ARENA_TICK_MS: '100', ARENA_SCHEDULE: 'off' });
  const clients: TestClient[] = [];
  let code: string;
  beforeAll(async () => {
    const creator = await newAccount(suite.url);
    const made = await api<ArenaView>(suite.url, '/api/arenas', { token: creator.token, body: { pool: '3+2', startsAt: new Date().toISOString(), minutes: 10 } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'private', rated: false, phase: 'running', standings: [] });
    code = made.body.code;
  });
  afterAll(() => clients.forEach((c) => c.close()));

  async function entrant() {
    const guest = await newGuest(suite.url);
    const client = await arenaClient(suite.url, guest.token);
    clients.push(client);
    return { ...guest, client };
  }

  it('pairs two who join, and every spectator sees a result in the standings within a second', async () => {
    const watcher = await entrant();
    const watched = await watcher.client.request('arena:watch', { code });
    expect(watched).toMatchObject({ ok: true, arena: { code, standings: [] } });
    const [a, b] = [await entrant(), await entrant()];
    for (const p of [a, b]) expect((await api<ArenaView>(suite.url, `/api/arenas/${code}/join`, { token: p.token, method: 'POST' })).status).toBe(200);

    await a.client.until(() => a.client.paired.length === 1, 'the pairing');
    await b.client.until(() => b.client.paired.length === 1, 'the pairing');
    const game = a.client.paired[0]!;
    expect(b.client.paired[0]).toEqual(game);
    await watcher.client.until(() => watcher.client.views.some((v) => v.games.some((g) => g.matchId === game.matchId && !g.ended)), 'the game in the standings');

    for (const p of [a, b]) await p.client.request('room:join', { code: game.roomCode });
    await a.client.request('opener:choose', { matchId: game.matchId, choice: 'rock' });
    await b.client.request('opener:choose', { matchId: game.matchId, choice: 'scissors' });
    const resigned = Date.now();
    expect(await b.client.request('resign', { matchId: game.matchId })).toMatchObject({ ok: true });
    await watcher.client.until(() => watcher.client.views.some((v) => v.standings[0]?.score === 2), 'the result in the standings', 1000);
    expect(Date.now() - resigned).toBeLessThan(1000);
    const view = watcher.client.views.at(-1)!;
    expect(view.standings.map((s) => [s.id, s.score, s.points])).toEqual([
      [a.player.id, 2, [2]],
      [b.player.id, 0, [0]],
    ]);
    expect(view.games.find((g) => g.matchId === game.matchId)).toMatchObject({ ended: true, roomCode: game.roomCode });

    // The two just met: not again at once. A third who joins is paired with one of them.
    const c = await entrant();
    await api(suite.url, `/api/arenas/${code}/join`, { token: c.token, method: 'POST' });
    await c.client.until(() => c.client.paired.length === 1, 'the third pairing');
    const opponents = [a, b].filter((p) => p.client.paired.length === 2);
    expect(opponents).toHaveLength(1);
    expect(opponents[0]!.client.paired[1]).toEqual(c.client.paired[0]);
  });

  it('answers bad input with a code and changes nothing', async () => {
    const p = await entrant();
    expect(await p.client.request('arena:watch', { code: '../x' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(await p.client.request('arena:watch', { code: 'NoSuchArena1' })).toMatchObject({ ok: false, code: 'ARENA_NOT_FOUND' });
    expect(await api(suite.url, '/api/arenas/NoSuchArena1/join', { token: p.token, method: 'POST' })).toMatchObject({ status: 404, body: { code: 'ARENA_NOT_FOUND' } });
    // Guests cannot make arenas; the body is checked.
    expect(await api(suite.url, '/api/arenas', { token: p.token, body: { pool: '3+2', startsAt: new Date().toISOString(), minutes: 10 } })).toMatchObject({ status: 403, body: { code: 'ACCOUNT_REQUIRED' } });
    const account = await newAccount(suite.url);
    expect(await api(suite.url, '/api/arenas', { token: account.token, body: { pool: '4+4', startsAt: new Date().toISOString(), minutes: 10 } })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect(await api(suite.url, '/api/arenas', { token: account.token, body: { pool: '3+2', startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), minutes: 10 } })).toMatchObject({ status: 400 });
    expect((await api<ArenaView>(suite.url, `/api/arenas/${code}`)).body.standings.some((s) => s.id === p.player.id)).toBe(false);
  });

  it('lists the arenas a player took part in', async () => {
    const view = (await api<ArenaView>(suite.url, `/api/arenas/${code}`)).body;
    const first = view.standings[0]!;
    const played = await api<{ arenas: Array<{ code: string; rank: number; score: number }> }>(suite.url, `/api/players/${first.id}/arenas`);
    expect(played.body.arenas).toEqual([expect.objectContaining({ code, rank: 1, score: first.score })]);
  });
});
