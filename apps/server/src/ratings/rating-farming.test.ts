import { legalMoves, newGame, PRESETS } from '@oanquan/rules';
import type { ErrorBody, QueueMatched, Seat, SessionResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, scriptedGame, startApp, TestClient } from '../testing/live.js';
import { RATED_GAMES_PER_PAIR } from './rating-service.js';

/** The two recipes of the attack report, scripted against the real server and queue. */
describe.each(engines)('ratings cannot be farmed on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    // Game after game without a pause between events: the socket rate limit is not what this test is about.
    ({ url, app, db } = await startApp(engine, { socketLimits: { rateBurst: 1000, ratePerSecond: 1000 } }, { QUEUE_TICK_MS: '50', QUEUE_BASE_GAP: '100000' }));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
  });

  // Rated play needs an account, so the farmer and their throw-away opponents make accounts.
  async function player(): Promise<SessionResponse & { c: TestClient }> {
    const g = await newAccount(url);
    const c = await TestClient.connect(url, g.token);
    clients.push(c);
    return { ...g, c };
  }

  const matchedCount = (c: TestClient) => c.queue.filter((q) => q.matched).length;

  /** One queue match: the farmer wins the toss, `plies` moves are played, then the victim resigns. */
  async function farmedGame(farmer: { c: TestClient }, victim: { c: TestClient }, plies: number): Promise<string> {
    const seen = matchedCount(farmer.c);
    await farmer.c.request('queue:join', { pool: '3+2' });
    await victim.c.request('queue:join', { pool: '3+2' });
    await farmer.c.until(() => matchedCount(farmer.c) > seen, 'the pairing');
    const { roomCode, matchId } = farmer.c.queue.filter((q) => q.matched).at(-1)!.matched as QueueMatched;
    const joined = await farmer.c.request('room:join', { code: roomCode });
    const seat = (joined as { seat: Seat }).seat;
    await victim.c.request('room:join', { code: roomCode });
    return resignedAfter(farmer, victim, matchId, seat, plies);
  }

  /** A match of the room the two sit in, from its opener: the farmer (in `seat`) wins the toss, `plies` moves are played, then the victim resigns. */
  async function resignedAfter(farmer: { c: TestClient }, victim: { c: TestClient }, matchId: string, seat: Seat, plies: number): Promise<string> {
    await farmer.c.request('opener:choose', { matchId, choice: 'rock' });
    let ack = await victim.c.request('opener:choose', { matchId, choice: 'scissors' });
    for (const [i, move] of scriptedGame(PRESETS.classic, seat).slice(0, plies).entries()) {
      if (!ack.ok) throw new Error(ack.code);
      ack = await (i % 2 === 0 ? farmer : victim).c.request('move', { matchId, moveId: `m${i}`, version: ack.version, ...move });
    }
    const resigned = await victim.c.request('resign', { matchId });
    if (!resigned.ok) throw new Error(resigned.code);
    return matchId;
  }

  const rowOf = (id: string) => db.prisma.player.findUniqueOrThrow({ where: { id } });

  /** The return game that followed a rated first game: the victim, who moves first in it, resigns after one move. */
  async function resignedReturnGame(first: string, victim: { c: TestClient }): Promise<string> {
    const { nextMatchId } = await db.prisma.match.findUniqueOrThrow({ where: { id: first } });
    const { first: starts } = await db.prisma.match.findUniqueOrThrow({ where: { id: nextMatchId! } });
    const opening = legalMoves(newGame({ rules: PRESETS.classic, first: starts as 0 | 1 }))[0]!;
    await victim.c.request('move', { matchId: nextMatchId, moveId: 'r1', version: 1, ...opening });
    const resigned = await victim.c.request('resign', { matchId: nextMatchId });
    if (!resigned.ok) throw new Error(resigned.code);
    return nextMatchId!;
  }

  it('a player beating throw-away accounts who resign at once gains nothing; a rated friend room is refused', async () => {
    const farmer = await player();
    const refused = await api<ErrorBody>(url, '/api/rooms', { token: farmer.token, body: { rated: true } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(/public queue/) });
    expect(await db.prisma.room.count({ where: { createdById: farmer.player.id } })).toBe(0);

    const matchIds: string[] = [];
    for (let i = 0; i < 6; i++) matchIds.push(await farmedGame(farmer, await player(), 0));
    const ended = await db.prisma.match.findMany({ where: { id: { in: matchIds } } });
    expect(ended.map((m) => [m.rated, m.endReason, m.ratedAt])).toEqual(matchIds.map(() => [true, 'resign', null]));
    expect(await rowOf(farmer.player.id)).toMatchObject({ rating: 1500, deviation: 350, ratedGames: 0 });
  });

  it('one fake opponent losing again and again moves the rating for at most two pairings a day; four plies and a resign do count', async () => {
    const [farmer, accomplice] = [await player(), await player()];
    const ratings: number[] = [];
    const matchIds: string[] = [];
    const pairings = RATED_GAMES_PER_PAIR / 2;
    for (let i = 0; i < pairings + 2; i++) {
      const first = await farmedGame(farmer, accomplice, 4);
      matchIds.push(first);
      ratings.push((await rowOf(farmer.player.id)).rating);
      // A rated first game is followed at once by its return game, which the accomplice, moving first, resigns too.
      if ((await db.prisma.match.findUniqueOrThrow({ where: { id: first } })).nextMatchId === null) continue;
      matchIds.push(await resignedReturnGame(first, accomplice));
      ratings.push((await rowOf(farmer.player.id)).rating);
    }
    // Past the limit the queue pairs them casually, so the room says from the start that nothing is at stake; a casual game has no return game.
    const rows = await Promise.all(matchIds.map((id) => db.prisma.match.findUniqueOrThrow({ where: { id } })));
    expect(rows.map((m) => [m.rated, m.pairGame])).toEqual([
      ...Array.from({ length: pairings }, () => [[true, 1], [true, 2]]).flat(),
      [false, null],
      [false, null],
    ]);
    const counted = ratings.slice(0, RATED_GAMES_PER_PAIR);
    expect(counted[0]).toBeGreaterThan(1500);
    for (let i = 1; i < counted.length; i++) expect(counted[i]).toBeGreaterThan(counted[i - 1]!);
    expect(new Set(ratings.slice(RATED_GAMES_PER_PAIR - 1)).size).toBe(1);
    expect(await rowOf(farmer.player.id)).toMatchObject({ ratedGames: RATED_GAMES_PER_PAIR });
    expect(await rowOf(accomplice.player.id)).toMatchObject({ ratedGames: RATED_GAMES_PER_PAIR });
    expect(await db.prisma.match.count({ where: { player0Id: { in: [farmer.player.id, accomplice.player.id] }, ratedAt: { not: null } } })).toBe(RATED_GAMES_PER_PAIR);
  });

  it('a rematch of a rated pairing opens another while the pair may still be rated, and is casual from its start once it may not', async () => {
    const [farmer, accomplice] = [await player(), await player()];
    const first = await farmedGame(farmer, accomplice, 4);
    const { player0Id } = await db.prisma.match.findUniqueOrThrow({ where: { id: first } });
    const seat: Seat = player0Id === farmer.player.id ? 0 : 1;
    const rematchOf = async (matchId: string) => {
      for (const side of [farmer, accomplice]) {
        const asked = await side.c.request('rematch', { matchId });
        if (!asked.ok) throw new Error(asked.code);
      }
      const { nextMatchId } = await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
      return db.prisma.match.findUniqueOrThrow({ where: { id: nextMatchId! } });
    };
    // One pairing rated: two more games still fit in the pair's limit.
    const second = await rematchOf(await resignedReturnGame(first, accomplice));
    expect([second.rated, second.pairGame]).toEqual([true, 1]);
    await resignedAfter(farmer, accomplice, second.id, seat, 4);
    // Two pairings rated: the limit is reached, and the next game says so before it starts.
    const third = await rematchOf(await resignedReturnGame(second.id, accomplice));
    expect(await db.prisma.match.count({ where: { OR: [{ player0Id: farmer.player.id }, { player1Id: farmer.player.id }], ratedAt: { not: null } } })).toBe(RATED_GAMES_PER_PAIR);
    expect([third.rated, third.pairGame]).toEqual([false, null]);
    // What the room shows: no pairing, so no stakes.
    const { code } = await db.prisma.room.findUniqueOrThrow({ where: { id: third.roomId } });
    const joined = await farmer.c.request('room:join', { code });
    expect(joined.ok && 'snapshot' in joined && [joined.snapshot.matchId, joined.snapshot.pairing]).toEqual([third.id, null]);
  });
});
