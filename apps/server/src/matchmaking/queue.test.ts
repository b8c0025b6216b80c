import { PRESETS } from '@oanquan/rules';
import type { PlayerProfile, Leaderboard, MatchRecord, MatchSnapshot, Seat } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, scriptedGame, startApp, TestClient } from '../testing/live.js';

const fastQueue = { QUEUE_TICK_MS: '100', QUEUE_BASE_GAP: '100', QUEUE_GAP_PER_SECOND: '400' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(engines)('the public queue on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, fastQueue));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
  });

  // Accounts, who play rated by default: the rated pairing is what these tests watch.
  async function player(rating?: number) {
    const guest = await newAccount(url);
    if (rating !== undefined) await db.prisma.player.update({ where: { id: guest.player.id }, data: { rating } });
    const c = await TestClient.connect(url, guest.token);
    clients.push(c);
    return { ...guest, c };
  }

  const queued = async (playerId: string) => (await db.prisma.queueEntry.count({ where: { playerId } })) === 1;

  it('puts two waiting players into one rated match within a few seconds, opener first', async () => {
    const [p, q] = await Promise.all([player(), player()]);
    expect(await p.c.request('queue:join', { pool: '3+2' })).toEqual({ ok: true });
    await p.c.until(() => p.c.queue.some((x) => x.status?.waiting === 1), 'a status while waiting alone');
    expect(await q.c.request('queue:join', { pool: '3+2' })).toEqual({ ok: true });
    await Promise.all([p.c, q.c].map((c) => c.until(() => c.matched !== undefined, 'the pairing', 5000)));
    expect(p.c.matched).toEqual(q.c.matched);
    // Both waits are in the metrics' histogram, under the pool: the second player's was the shorter.
    const waits = (await app.metrics.queueWait.get()).values.filter((v) => v.labels.pool === '3+2');
    expect(waits.find((v) => v.metricName === 'oanquan_queue_wait_seconds_count')?.value).toBe(2);
    expect(waits.find((v) => v.metricName === 'oanquan_queue_wait_seconds_sum')?.value).toBeGreaterThan(0);

    const join = await p.c.request('room:join', { code: p.c.matched!.roomCode });
    const snapshot = (join as { snapshot: MatchSnapshot }).snapshot;
    expect(snapshot).toMatchObject({ matchId: p.c.matched!.matchId, status: 'opener', timeControl: { initialSeconds: 180, incrementSeconds: 2 } });
    expect(snapshot.seats.map((s) => s?.id).sort()).toEqual([p.player.id, q.player.id].sort());
    expect((await api<{ rated: boolean }>(url, `/api/rooms/${p.c.matched!.roomCode}`)).body.rated).toBe(true);
    expect(await queued(p.player.id)).toBe(false);
  });

  it('takes a player out when they leave or disconnect', async () => {
    const [p, q] = await Promise.all([player(), player()]);
    await p.c.request('queue:join', { pool: '10+5' });
    expect(await queued(p.player.id)).toBe(true);
    expect(await p.c.request('queue:leave', {})).toEqual({ ok: true });
    expect(await queued(p.player.id)).toBe(false);

    await q.c.request('queue:join', { pool: '10+5' });
    q.c.close();
    const deadline = Date.now() + 5000;
    while ((await queued(q.player.id)) && Date.now() < deadline) await sleep(50);
    expect(await queued(q.player.id)).toBe(false);
    expect(p.c.matched).toBeUndefined();
  });

  it('keeps far-apart ratings waiting at first and pairs them once the window has widened', async () => {
    const [low, high] = await Promise.all([player(1500), player(2300)]);
    const joined = Date.now();
    await Promise.all([low.c.request('queue:join', { pool: '5+3' }), high.c.request('queue:join', { pool: '5+3' })]);
    // 100 + 400/s: an 800 gap is accepted after 1.75 s of waiting.
    await sleep(1000);
    expect(low.c.matched).toBeUndefined();
    expect(await queued(low.player.id)).toBe(true);
    await low.c.until(() => low.c.matched !== undefined, 'the wider window', 5000);
    expect(Date.now() - joined).toBeGreaterThanOrEqual(1700);
    await high.c.until(() => high.c.matched !== undefined, 'the pairing');
    expect(high.c.matched).toEqual(low.c.matched);
  });

  it('rates a decided queue match: the winner goes up, the loser down, both stored; profiles and the leaderboard show it', async () => {
    const [p, q] = await Promise.all([player(), player()]);
    await Promise.all([p.c.request('queue:join', { pool: '3+2' }), q.c.request('queue:join', { pool: '3+2' })]);
    await p.c.until(() => p.c.matched !== undefined, 'the pairing', 5000);
    const { matchId, roomCode } = p.c.matched!;
    const joined = await p.c.request('room:join', { code: roomCode });
    await q.c.request('room:join', { code: roomCode });
    await p.c.request('opener:choose', { matchId, choice: 'rock' });
    let ack = await q.c.request('opener:choose', { matchId, choice: 'scissors' });
    // Two moves each: a match shorter than that is not rated.
    for (const [i, move] of scriptedGame(PRESETS.classic, (joined as { seat: Seat }).seat).slice(0, 4).entries()) {
      if (!ack.ok) throw new Error(ack.code);
      ack = await (i % 2 === 0 ? p : q).c.request('move', { matchId, moveId: `m${i}`, version: ack.version, ...move });
    }
    expect(await q.c.request('resign', { matchId })).toMatchObject({ ok: true });

    const [winner, loser] = await Promise.all([p, q].map((x) => db.prisma.player.findUniqueOrThrow({ where: { id: x.player.id } })));
    expect(winner!.rating).toBeGreaterThan(1500);
    expect(loser!.rating).toBeLessThan(1500);
    expect(winner!.deviation).toBeLessThan(350);
    expect([winner!.ratedGames, loser!.ratedGames]).toEqual([1, 1]);

    // The change applied is reported: in the ended event, the snapshot and the record.
    const seatOfP = (await api<MatchRecord>(url, `/api/matches/${matchId}`)).body.players[0]?.id === p.player.id ? 0 : 1;
    const won = { before: 1500, after: winner!.rating };
    const lost = { before: 1500, after: loser!.rating };
    const changes = seatOfP === 0 ? [won, lost] : [lost, won];
    await q.c.until(() => q.c.events.some((e) => e.event.type === 'ended'), 'the end');
    expect(q.c.events.find((e) => e.event.type === 'ended')!.event).toMatchObject({ type: 'ended', ratings: changes });
    expect((await api<MatchRecord>(url, `/api/matches/${matchId}`)).body.ratings).toEqual(changes);
    // The room has moved on to the pairing's return game, started by the other player; the record above keeps the first game's change.
    const again = (await q.c.request('room:join', { code: roomCode })) as { snapshot: MatchSnapshot };
    expect(again.snapshot).toMatchObject({ number: 2, status: 'playing', first: 1 - seatOfP, pairing: { game: 2, firstGame: { winner: seatOfP } } });

    const profile = (await api<PlayerProfile>(url, `/api/players/${p.player.id}`)).body;
    expect(profile).toMatchObject({ id: p.player.id, record: { wins: 1, losses: 0, draws: 0 }, rating: { rating: winner!.rating, provisional: true } });
    expect(profile.recent.map((m) => m.id)).toEqual([matchId]);
    expect((await api(url, '/api/players/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    // Provisional players are listed after the established ones, marked; established ones are ranked by rating.
    const early = (await api<Leaderboard>(url, '/api/leaderboard')).body.players;
    expect(early.find((e) => e.id === p.player.id)).toMatchObject({ provisional: true, games: 1 });
    expect(early.filter((e) => !e.provisional).map((e) => e.id)).not.toContain(p.player.id);
    await db.prisma.player.updateMany({ where: { id: { in: [p.player.id, q.player.id] } }, data: { deviation: 80 } });
    const established = (await api<Leaderboard>(url, '/api/leaderboard')).body.players.filter((e) => !e.provisional).map((e) => e.id);
    expect(established.indexOf(p.player.id)).toBeGreaterThanOrEqual(0);
    expect(established.indexOf(p.player.id)).toBeLessThan(established.indexOf(q.player.id));
  });
});
