import { DEFAULT_GLICKO, returnGameStakes, type ErrorBody, type MatchEventEnvelope, type MatchSnapshot, type Seat, type SessionResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { newAccount, startApp, TestClient } from '../testing/live.js';
import { playPlies, queuedGame } from '../testing/queue-games.js';

type Joined = { ok: true; seat: Seat | null; snapshot: MatchSnapshot };

/** Rated queue games are pairings of two with the first move swapped, the pair's two results rated as one period. */
describe.each(engines)('rated pairings on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(
      engine,
      { socketLimits: { rateBurst: 1000, ratePerSecond: 1000 } },
      // Long enough for the checks made before a return game's first move on a busy machine, short enough to wait for its lapse.
      { QUEUE_TICK_MS: '50', QUEUE_BASE_GAP: '100000', FIRST_MOVE_TIMEOUT_MS: '6000' },
    ));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
  });

  async function player(): Promise<SessionResponse & { c: TestClient }> {
    const g = await newAccount(url);
    const c = await TestClient.connect(url, g.token);
    clients.push(c);
    return { ...g, c };
  }
  const rematchOf = (c: TestClient, matchId: string) =>
    c.events.find((e): e is MatchEventEnvelope & { event: { type: 'rematch'; matchId: string } } => e.matchId === matchId && e.event.type === 'rematch')?.event.matchId;
  const matchRow = (id: string) => db.prisma.match.findUniqueOrThrow({ where: { id } });
  const playerRow = (id: string) => db.prisma.player.findUniqueOrThrow({ where: { id } });

  it('starts the return game at once with the other player moving first, refuses to abort it, and rates both games', async () => {
    const [winner, loser] = [await player(), await player()];
    const first = await queuedGame(winner.c, loser.c);
    const bySeat = (first.winnerSeat === 0 ? [winner.c, loser.c] : [loser.c, winner.c]) as [TestClient, TestClient];
    const opened = (await winner.c.request('room:join', { code: first.roomCode })) as Joined;
    expect(opened.snapshot.pairing).toEqual({ game: 1, firstGame: null });

    await playPlies(first.matchId, first.winnerSeat, bySeat, first.version);
    await Promise.all([winner.c, loser.c].map((c) => c.until(() => rematchOf(c, first.matchId) !== undefined, 'the return game')));
    const returnId = rematchOf(winner.c, first.matchId)!;
    expect(rematchOf(loser.c, first.matchId)).toBe(returnId);

    const game1 = await matchRow(first.matchId);
    expect(game1).toMatchObject({ status: 'ended', rated: true, pairGame: 1, nextMatchId: returnId });
    expect(game1.ratedAt).not.toBeNull();
    const returnGame = await matchRow(returnId);
    const otherSeat: Seat = first.winnerSeat === 0 ? 1 : 0;
    expect(returnGame).toMatchObject({ status: 'playing', rated: true, pairGame: 2, first: otherSeat, number: 2, pairFirstWinner: game1.winner });
    expect([returnGame.player0Id, returnGame.player1Id]).toEqual([game1.player0Id, game1.player1Id]);

    // The room now shows the return game, already started: no opener, the toss loser to move.
    const joined = (await loser.c.request('room:join', { code: first.roomCode })) as Joined;
    expect(joined.snapshot).toMatchObject({ matchId: returnId, status: 'playing', first: otherSeat, version: 1, pairing: { game: 2, firstGame: { winner: game1.winner } } });
    expect(joined.snapshot.opener.rounds).toEqual([]);
    // Asking for a rematch of the first game changes nothing: its next game is the return game.
    expect(await winner.c.request('rematch', { matchId: first.matchId })).toEqual({ ok: true, version: game1.version });
    const refused = (await winner.c.request('abort', { matchId: returnId })) as ErrorBody;
    expect(refused).toMatchObject({ ok: false, code: 'NOT_ALLOWED_NOW' });
    expect((await matchRow(returnId)).status).toBe('playing');

    // The toss winner resigns the return game after one move: it still counts, however short.
    const version = await playPlies(returnId, otherSeat, bySeat, 1, 1);
    expect(version).toBe(2);
    expect(await winner.c.request('resign', { matchId: returnId })).toMatchObject({ ok: true });
    const game2 = await matchRow(returnId);
    expect(game2).toMatchObject({ status: 'ended', endReason: 'resign', winner: otherSeat, nextMatchId: null });
    expect(game2.ratedAt).not.toBeNull();
    expect(await playerRow(winner.player.id)).toMatchObject({ ratedGames: 2 });
    expect(await playerRow(loser.player.id)).toMatchObject({ ratedGames: 2 });
    // Game 2's change starts where game 1 left each rating, and ends where the pair rated as one period from 1500 leads.
    const [change1, change2] = [game1.ratingChanges, game2.ratingChanges] as Array<Array<{ before: number; after: number }>>;
    expect(change2![otherSeat]!.before).toBe(change1![otherSeat]!.after);
    expect(change2![otherSeat]!.after).toBeGreaterThan(change2![otherSeat]!.before);
    expect(joined.snapshot.pairing?.firstGame?.before).toEqual([DEFAULT_GLICKO, DEFAULT_GLICKO]);
    const firstScore = (seat: Seat) => (game1.winner === null ? 0.5 : game1.winner === seat ? 1 : 0);
    for (const [who, seat] of [[winner, first.winnerSeat], [loser, otherSeat]] as const) {
      const expected = returnGameStakes(DEFAULT_GLICKO, DEFAULT_GLICKO, firstScore(seat))[seat === otherSeat ? 'win' : 'loss'];
      const row = await playerRow(who.player.id);
      expect(row.rating).toBeCloseTo(expected.rating, 6);
      expect(row.deviation).toBeCloseTo(expected.deviation, 6);
      expect(change2![seat]!.after).toBeCloseTo(expected.rating, 6);
    }
    // The scripted game 1 goes to its first mover: one win each leaves the two exactly level, the toss decided only the order.
    expect(game1.winner).toBe(first.winnerSeat);
    expect((await playerRow(winner.player.id)).rating).toBeCloseTo((await playerRow(loser.player.id)).rating, 9);
    expect((await playerRow(winner.player.id)).rating).toBeCloseTo(1500, 9);

    // A rematch after the pair opens a new one: its first game, with the opener.
    await winner.c.request('rematch', { matchId: returnId });
    await loser.c.request('rematch', { matchId: returnId });
    const next = await matchRow((await matchRow(returnId)).nextMatchId!);
    expect(next).toMatchObject({ number: 3, status: 'opener', rated: true, pairGame: 1, pairFirstWinner: null, first: null });
  });

  it('loses the return game on time for the one who was to start it and never did, and starts none after an unrated first game', async () => {
    const [winner, loser] = [await player(), await player()];
    const first = await queuedGame(winner.c, loser.c);
    const bySeat = (first.winnerSeat === 0 ? [winner.c, loser.c] : [loser.c, winner.c]) as [TestClient, TestClient];
    await playPlies(first.matchId, first.winnerSeat, bySeat, first.version, 4);
    expect(await loser.c.request('resign', { matchId: first.matchId })).toMatchObject({ ok: true });
    await winner.c.until(() => rematchOf(winner.c, first.matchId) !== undefined, 'the return game');
    const returnId = rematchOf(winner.c, first.matchId)!;
    await winner.c.request('room:join', { code: first.roomCode });
    await winner.c.until(() => winner.c.events.some((e) => e.matchId === returnId && e.event.type === 'ended'), 'the lapsed first move', 20_000);
    const game2 = await matchRow(returnId);
    expect(game2).toMatchObject({ status: 'ended', endReason: 'timeout', winner: first.winnerSeat });
    expect(game2.ratedAt).not.toBeNull();
    expect(await playerRow(loser.player.id)).toMatchObject({ ratedGames: 2 });

    // A first game resigned at once proves nothing, is not rated, and so opens no return game.
    const again = await queuedGame(winner.c, loser.c);
    expect(await loser.c.request('resign', { matchId: again.matchId })).toMatchObject({ ok: true });
    expect(await matchRow(again.matchId)).toMatchObject({ status: 'ended', ratedAt: null, nextMatchId: null, pairGame: 1 });
    expect(await db.prisma.match.count({ where: { roomId: (await matchRow(again.matchId)).roomId } })).toBe(1);
  });
});
