import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { arenaWithPair, endedMatch, finishedArena } from '../testing/awaited-ends.js';
import { newAccount, newGuest, newRoom, type TestClient } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

/** FIRST_MOVE_TIMEOUT_MS: how long the players have for the first hand. */
const IDLE_MS = 800;
/** The deadline sweep's period (deadline-sweeper.ts), within which an idle opener is found. */
const SWEEP_MS = 2000;

/**
 * Openers both players sit in but where nobody chooses a hand: aborted,
 * unrated, FIRST_MOVE_TIMEOUT_MS after the opener began or its last tie,
 * so that two present players cannot hold a match (or its arena) open.
 */
describe.each(engines)('openers nobody chooses in on %s', (engine) => {
  const suite = appForSuite(engine, {}, {
    FIRST_MOVE_TIMEOUT_MS: String(IDLE_MS),
    OPENER_TIMEOUT_MS: '300',
    ABANDON_GRACE_MS: '600000',
    QUEUE_TICK_MS: '100',
    ARENA_TICK_MS: '100',
    ARENA_SCHEDULE: 'off',
  });

  /** When the match's latest event was stored, or its making without one. */
  async function lastActivity(matchId: string): Promise<number> {
    const match = await suite.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    const latest = await suite.db.prisma.matchEvent.findFirst({ where: { matchId }, orderBy: { version: 'desc' } });
    return Math.max(match.createdAt.getTime(), latest?.createdAt.getTime() ?? 0);
  }

  async function joined(client: TestClient, code: string): Promise<void> {
    const ack = await client.request('room:join', { code });
    if (!ack.ok) throw new Error(ack.code);
  }

  /** Alice's friend room with Alice and Bob in it: its opener has begun. */
  async function friendsSeated() {
    const [alice, bob] = await Promise.all([newGuest(suite.url), newGuest(suite.url)]);
    const room = await newRoom(suite.url, alice.token);
    const [a, b] = await Promise.all([suite.client(alice.token), suite.client(bob.token)]);
    await joined(a, room.code);
    await joined(b, room.code);
    return { matchId: room.matchId, a, b };
  }

  function endedEvent(client: TestClient) {
    return client.events.find((e) => e.event.type === 'ended')?.event;
  }

  it('aborts a rated queue pairing both players opened but neither chose a hand in, unrated', async () => {
    const [alice, bob] = await Promise.all([newAccount(suite.url), newAccount(suite.url)]);
    const [a, b] = await Promise.all([suite.client(alice.token), suite.client(bob.token)]);
    await a.request('queue:join', { pool: '3+2' });
    await b.request('queue:join', { pool: '3+2' });
    await a.until(() => a.matched !== undefined, 'the pairing');
    const { matchId, roomCode } = a.matched!;
    await joined(a, roomCode);
    await joined(b, roomCode);
    const paired = await suite.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    expect(paired).toMatchObject({ status: 'opener', version: 0, rated: true });

    const row = await endedMatch(suite.db, matchId, IDLE_MS + SWEEP_MS + 1000);
    // Both were in the room: no absence ended it.
    expect(row).toMatchObject({ endReason: 'abort', winner: null, ratedAt: null, ratingChanges: null, absent0Since: null, absent1Since: null });
    const after = row.endedAt!.getTime() - paired.createdAt.getTime();
    console.info(`${engine}: a queue pairing nobody chose in ended ${after} ms after it was made (timeout ${IDLE_MS} ms, sweep every ${SWEEP_MS} ms)`);
    expect(after).toBeGreaterThanOrEqual(IDLE_MS);
    await a.until(() => endedEvent(a) !== undefined, 'the end');
    expect(endedEvent(a)).toEqual({ type: 'ended', result: { winner: null, reason: 'abort', score: null }, ratings: null });
  });

  it('counts a friend room from the second seat taken: a room that waited for its friend longer is not aborted at once', async () => {
    const [alice, bob] = await Promise.all([newGuest(suite.url), newGuest(suite.url)]);
    const room = await newRoom(suite.url, alice.token);
    const a = await suite.client(alice.token);
    await joined(a, room.code);
    // Alice waits alone past the timeout and a sweep: a waiting match has no opener yet.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + SWEEP_MS));
    const b = await suite.client(bob.token);
    await joined(b, room.code);
    const seated = await lastActivity(room.matchId);
    expect(seated - (await suite.db.prisma.match.findUniqueOrThrow({ where: { id: room.matchId } })).createdAt.getTime()).toBeGreaterThan(IDLE_MS + SWEEP_MS);

    const row = await endedMatch(suite.db, room.matchId, IDLE_MS + SWEEP_MS + 1000);
    expect(row).toMatchObject({ endReason: 'abort', winner: null });
    expect(row.endedAt!.getTime() - seated).toBeGreaterThanOrEqual(IDLE_MS);
  });

  it('counts from a tied round: nobody choosing after it aborts the match', async () => {
    const { matchId, a, b } = await friendsSeated();
    // Most of the timeout passes before the tie, so counting from the seats would end it sooner.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 2));
    expect((await a.request('opener:choose', { matchId: matchId, choice: 'rock' })).ok).toBe(true);
    expect((await b.request('opener:choose', { matchId: matchId, choice: 'rock' })).ok).toBe(true);
    await a.until(() => a.events.some((e) => e.event.type === 'opener-round'), 'the tie');
    expect(a.events.find((e) => e.event.type === 'opener-round')!.event).toMatchObject({ winner: null });
    const tied = await lastActivity(matchId);

    const row = await endedMatch(suite.db, matchId, IDLE_MS + SWEEP_MS + 1000);
    expect(row).toMatchObject({ endReason: 'abort', winner: null });
    expect(row.endedAt!.getTime() - tied).toBeGreaterThanOrEqual(IDLE_MS);
  });

  it('a hand chosen in time keeps the match: the opener timeout gives the one who chose the toss', async () => {
    const { matchId, a } = await friendsSeated();
    expect((await a.request('opener:choose', { matchId: matchId, choice: 'paper' })).ok).toBe(true);

    await a.until(() => a.events.some((e) => e.event.type === 'started'), 'the start', IDLE_MS + SWEEP_MS + 1000);
    const types = a.events.map((e) => e.event.type);
    expect(types.slice(types.indexOf('opener-chosen'))).toEqual(['opener-chosen', 'opener-forfeit', 'started']);
    expect(a.events.find((e) => e.event.type === 'opener-forfeit')!.event).toMatchObject({ winner: 0 });
  });

  it('an arena whose only game sits in an opener nobody chooses in reaches its podium after its end time', async () => {
    const { code, arena, game, entrants } = await arenaWithPair(suite);
    const { room } = await suite.db.prisma.match.findUniqueOrThrow({ where: { id: game.matchId }, include: { room: true } });
    // Both open the game's room (present, so no absence ends it) and never choose.
    for (const entrant of entrants) await joined(await suite.client(entrant.token), room.code);
    const endsAt = new Date(Date.now() + 200);
    await suite.db.prisma.arena.update({ where: { id: arena.id }, data: { endsAt } });

    expect(await endedMatch(suite.db, game.matchId, IDLE_MS + SWEEP_MS + 1000)).toMatchObject({ endReason: 'abort', absent0Since: null, absent1Since: null });
    const row = await finishedArena(suite, code, 3000);
    console.info(`${engine}: the arena finished ${row.finishedAt!.getTime() - endsAt.getTime()} ms after its end time`);
    expect(row.finishedAt!.getTime() - endsAt.getTime()).toBeLessThan(IDLE_MS + SWEEP_MS + 1000);
  });
});
