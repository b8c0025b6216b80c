import { randomUUID } from 'node:crypto';
import { analysisResponse, type AnalysisResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, newRoom, startApp, TestClient } from '../testing/live.js';

// After 2< 3< (ring squares 2 and 9), player 0's 4> lets the opponent
// capture a quan piece's worth: a blunder by any search of four plies or more.
const GAME = [
  { square: 2, dir: -1 },
  { square: 9, dir: -1 },
  { square: 4, dir: 1 },
];

describe.each(engines)('match analysis on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, { ANALYSIS_DEPTH: '6', ANALYSIS_PER_PLAYER: '2', ANALYSIS_QUEUE_MAX: '3' }));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app.close();
  });

  /** A friend room's match with these moves, seat 0 first, then resigned by seat 1 (or left unfinished). */
  async function played(moves: typeof GAME, finish = true) {
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token);
    const a = await TestClient.connect(url, alice.token);
    const b = await TestClient.connect(url, bob.token);
    clients.push(a, b);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!opened.ok) throw new Error(opened.code);
    let version = opened.version;
    for (const [i, move] of moves.entries()) {
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: room.matchId, moveId: `m${i}`, version, ...move });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
    }
    if (finish) await b.request('resign', { matchId: room.matchId });
    return { matchId: room.matchId, alice };
  }

  async function read(matchId: string): Promise<AnalysisResponse> {
    return analysisResponse.parse((await api(url, `/api/matches/${matchId}/analysis`)).body);
  }

  async function done(matchId: string): Promise<AnalysisResponse> {
    const deadline = Date.now() + 60_000;
    const seen: number[] = [];
    for (;;) {
      const now = await read(matchId);
      seen.push(now.progress.done);
      if (now.status === 'done') {
        // Progress only ever goes forward.
        expect(seen).toEqual([...seen].sort((x, y) => x - y));
        return now;
      }
      if (now.status === 'failed' || Date.now() > deadline) throw new Error(`analysis ${now.status} at ${JSON.stringify(now.progress)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('analyses a finished match once: labels the known blunder, serves the documented shape, and answers the stored one after', async () => {
    const { matchId, alice } = await played(GAME);
    expect(await read(matchId)).toEqual({ matchId, status: 'none', progress: { done: 0, total: 0 }, depth: null, plies: null, accuracy: null });

    const asked = await api<AnalysisResponse>(url, `/api/matches/${matchId}/analysis`, { method: 'POST', token: alice.token });
    expect(asked.status).toBe(202);
    expect(analysisResponse.parse(asked.body)).toMatchObject({ status: 'queued', progress: { done: 0, total: 3 }, depth: 6, plies: null });

    const result = await done(matchId);
    expect(result.progress).toEqual({ done: 3, total: 3 });
    expect(result.plies!.map((p) => [p.ply, p.seat])).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
    ]);
    const blunder = result.plies![2]!;
    expect(blunder.label).toBe('blunder');
    expect(blunder.pointsLost).toBeGreaterThanOrEqual(10);
    expect(blunder.chanceLost).toBeGreaterThanOrEqual(0.3);
    expect(blunder.best).not.toEqual(GAME[2]);
    expect(blunder.bestNotation).toMatch(/^[1-5][<>]$/);
    expect(blunder.winChance).toBeGreaterThan(0);
    expect(blunder.winChance).toBeLessThan(1);
    expect(result.accuracy![0]!).toBeLessThan(result.accuracy![1]!);

    // Stored once: asking again (anyone) answers the same analysis and runs nothing.
    const row = await db.prisma.matchAnalysis.findUniqueOrThrow({ where: { matchId } });
    const other = await newGuest(url);
    const again = await api<AnalysisResponse>(url, `/api/matches/${matchId}/analysis`, { method: 'POST', token: other.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(result);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await db.prisma.matchAnalysis.findUniqueOrThrow({ where: { matchId } })).toEqual(row);
    expect(await db.prisma.matchAnalysis.count({ where: { matchId } })).toBe(1);

    // An analysis stored under an earlier judgement (here labels by points lost, no chance lost) is read with today's.
    const stored = row.result as unknown as { plies: Record<string, unknown>[] };
    const earlier = { ...stored, plies: stored.plies.map(({ chanceLost: _dropped, ...ply }) => ({ ...ply, label: 'blunder' })) };
    await db.prisma.matchAnalysis.update({ where: { matchId }, data: { result: earlier } });
    const reread = await read(matchId);
    expect(reread.plies!.map((p) => p.label)).toEqual(result.plies!.map((p) => p.label));
    expect(reread.plies!.map((p) => p.chanceLost)).toEqual(result.plies!.map((p) => p.chanceLost));
    expect(reread.accuracy).toEqual(result.accuracy);
    expect(result.plies!.some((p) => p.label !== 'blunder')).toBe(true);

    // One stored under the labels by win chance alone: twelve points thrown away in a game already lost were a best move at 99 %.
    const lostGame = { ...stored, plies: stored.plies.map((ply, i) => (i === 1 ? { ...ply, eval: -40, playedEval: -52, pointsLost: 12, label: 'best', accuracy: 99 } : ply)) };
    await db.prisma.matchAnalysis.update({ where: { matchId }, data: { result: lostGame as object } });
    const rejudged = await read(matchId);
    expect(rejudged.plies![1]!.chanceLost).toBeLessThan(0.01);
    expect(rejudged.plies![1]!.label).toBe('blunder');
    expect(rejudged.plies![1]!.accuracy).toBeLessThan(30);
    expect(rejudged.accuracy![1]!).toBeLessThan(result.accuracy![1]!);
  }, 90_000);

  it('refuses an unfinished match, an unknown one, a malformed id and a stranger without a token', async () => {
    const { matchId, alice } = await played(GAME.slice(0, 1), false);
    const post = (id: string, token?: string) => api<{ code: string }>(url, `/api/matches/${id}/analysis`, { method: 'POST', token });
    expect(await post(matchId, alice.token)).toMatchObject({ status: 409, body: { code: 'MATCH_NOT_ENDED' } });
    expect(await post(randomUUID(), alice.token)).toMatchObject({ status: 404, body: { code: 'MATCH_NOT_FOUND' } });
    expect(await post('not-a-uuid', alice.token)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect((await post(matchId)).status).toBe(401);
    expect(await db.prisma.matchAnalysis.count({ where: { matchId } })).toBe(0);
  });

  it('bounds the queue in all: past ANALYSIS_QUEUE_MAX pending analyses anyone is refused with 503 until one finishes', async () => {
    const matches = [await played(GAME.slice(0, 2)), await played(GAME.slice(0, 2)), await played(GAME.slice(0, 2)), await played(GAME.slice(0, 2))];
    const [waiting, asker] = [matches.slice(0, 3), matches[3]!];
    // The earlier tests' analyses have all finished: these three fill the queue.
    expect(await db.prisma.matchAnalysis.count({ where: { status: { in: ['queued', 'running'] } } })).toBe(0);
    // Each for a different player, so no one is past their own cap; fresh, so no process takes them over.
    await db.prisma.matchAnalysis.createMany({
      data: waiting.map(({ matchId, alice }) => ({ matchId, status: 'running', depth: 6, total: 2, requestedById: alice.player.id, result: { plies: [] } })),
    });
    const ask = () => api<{ code: string }>(url, `/api/matches/${asker.matchId}/analysis`, { method: 'POST', token: asker.alice.token });
    expect(await ask()).toMatchObject({ status: 503, body: { code: 'ANALYSIS_BUSY' } });
    expect(await db.prisma.matchAnalysis.count({ where: { matchId: asker.matchId } })).toBe(0);

    await db.prisma.matchAnalysis.update({ where: { matchId: waiting[0]!.matchId }, data: { status: 'done' } });
    expect((await ask()).status).toBe(202);
    expect((await done(asker.matchId)).plies).toHaveLength(2);
    await db.prisma.matchAnalysis.deleteMany({ where: { matchId: { in: waiting.map((m) => m.matchId) } } });
  });

  it('bounds the queue per player: past their pending analyses a player is refused until those finish', async () => {
    const [one, two, three] = [await played(GAME.slice(0, 2)), await played(GAME.slice(0, 2)), await played(GAME.slice(0, 2))];
    const asker = await newGuest(url);
    // Two analyses already under way for this player (fresh, so no process takes them over).
    await db.prisma.matchAnalysis.createMany({
      data: [one, two].map(({ matchId }) => ({ matchId, status: 'running', depth: 6, total: 2, requestedById: asker.player.id, result: { plies: [] } })),
    });
    const refused = await api<{ code: string }>(url, `/api/matches/${three.matchId}/analysis`, { method: 'POST', token: asker.token });
    expect(refused).toMatchObject({ status: 429, body: { code: 'ANALYSIS_BUSY' } });
    expect(await db.prisma.matchAnalysis.count({ where: { matchId: three.matchId } })).toBe(0);
    // Another player is not held up by them.
    const other = await api(url, `/api/matches/${three.matchId}/analysis`, { method: 'POST', token: three.alice.token });
    expect(other.status).toBe(202);
    await db.prisma.matchAnalysis.deleteMany({ where: { matchId: { in: [one.matchId, two.matchId] } } });
  });
});
