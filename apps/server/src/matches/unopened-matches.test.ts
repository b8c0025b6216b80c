import type { Presence } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { arenaWithPair, endedMatch, finishedArena } from '../testing/awaited-ends.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, type TestClient } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

const GRACE_MS = 600;
/** The deadline sweep's period (deadline-sweeper.ts), within which an overdue match is found. */
const SWEEP_MS = 2000;

/**
 * Matches whose players were paired for them (the queue, a challenge taken,
 * an arena) but never opened the room: each player is absent from the
 * pairing on, so such a match ends within the grace as the rules for
 * absence say, and an arena with one finishes at its end time.
 */
describe.each(engines)('matches nobody opens on %s', (engine) => {
  const suite = appForSuite(engine, {}, { ABANDON_GRACE_MS: String(GRACE_MS), OPENER_TIMEOUT_MS: '300', QUEUE_TICK_MS: '100', ARENA_TICK_MS: '100', ARENA_SCHEDULE: 'off' });

  /** A guest with a socket (not in any room) and a player row, as a room of their own gives one. */
  async function person(): Promise<{ token: string; id: string; client: TestClient }> {
    const guest = await newGuest(suite.url);
    await api(suite.url, '/api/rooms', { token: guest.token, body: {} });
    return { token: guest.token, id: guest.player.id, client: await suite.client(guest.token) };
  }

  async function challengeTaken(): Promise<{ matchId: string; roomCode: string; alice: Awaited<ReturnType<typeof person>>; bob: Awaited<ReturnType<typeof person>> }> {
    const [alice, bob] = await Promise.all([person(), person()]);
    const offered = await alice.client.request('challenge:open', {});
    if (!offered.ok) throw new Error(offered.code);
    const taken = await bob.client.request('challenge:accept', { id: offered.challenge.id });
    if (!taken.ok) throw new Error(taken.code);
    return { matchId: taken.matchId, roomCode: taken.roomCode, alice, bob };
  }

  it('aborts a queue pairing neither player opens within the grace of the pairing, unrated', async () => {
    const [alice, bob] = await Promise.all([newGuest(suite.url), newGuest(suite.url)]);
    const [a, b] = await Promise.all([suite.client(alice.token), suite.client(bob.token)]);
    await a.request('queue:join', { pool: '3+2' });
    await b.request('queue:join', { pool: '3+2' });
    await a.until(() => a.matched !== undefined, 'the pairing');
    const { matchId } = a.matched!;
    const paired = await suite.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    expect(paired).toMatchObject({ status: 'opener', version: 0, absent0Since: paired.createdAt, absent1Since: paired.createdAt });

    // Both stay connected to the server, in no room.
    const row = await endedMatch(suite.db, matchId, GRACE_MS + SWEEP_MS + 1000);
    expect(row).toMatchObject({ endReason: 'abort', winner: null, ratedAt: null });
    const after = row.endedAt!.getTime() - row.createdAt.getTime();
    console.info(`${engine}: a queue pairing nobody opened ended ${after} ms after it was made (grace ${GRACE_MS} ms, sweep every ${SWEEP_MS} ms)`);
    expect(after).toBeGreaterThanOrEqual(GRACE_MS);
    expect(after).toBeLessThan(GRACE_MS + SWEEP_MS + 500);
  });

  it('aborts an accepted challenge neither player opens; one player opening it is enough to keep it', async () => {
    const nobody = await challengeTaken();
    const opened = await challengeTaken();
    const joined = await opened.alice.client.request('room:join', { code: opened.roomCode });
    expect(joined.ok).toBe(true);
    expect(await endedMatch(suite.db, nobody.matchId, GRACE_MS + SWEEP_MS + 1000)).toMatchObject({ endReason: 'abort', winner: null });
    // Past the grace and a sweep, the one with Alice in it is still at its opener.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS + SWEEP_MS));
    const kept = await suite.db.prisma.match.findUniqueOrThrow({ where: { id: opened.matchId } });
    expect(kept).toMatchObject({ status: 'opener', absent0Since: null });
    expect(kept.absent1Since).toEqual(kept.createdAt);
  });

  it('counts the absence of a player who never came from the pairing: the one who came may claim the grace after it', async () => {
    const { matchId, roomCode, alice } = await challengeTaken();
    const created = (await suite.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } })).createdAt.getTime();
    const a = alice.client;
    expect((await a.request('room:join', { code: roomCode })).ok).toBe(true);
    await a.request('opener:choose', { matchId, choice: 'rock' });
    // The opener lapses: Alice, who chose, wins the toss (the sweep finds it) and moves first.
    await a.until(() => a.events.some((e) => e.event.type === 'started'), 'the start', SWEEP_MS + 2000);
    const moved = await a.request('move', { matchId, moveId: 'a1', version: a.version, square: 1, dir: 1 });
    expect(moved.ok).toBe(true);
    const claimable = (p: Presence) => p.matchId === matchId && p.seats[1].claimableAt !== null;
    await a.until(() => a.presence.some(claimable), 'the claimable absence');
    expect(Date.parse(a.presence.find(claimable)!.seats[1].claimableAt!)).toBe(created + GRACE_MS);
    const claimed = await a.request('claim', { matchId });
    expect(claimed).toMatchObject({ ok: true });
    await a.until(() => a.events.some((e) => e.event.type === 'ended'), 'the end');
    expect(a.events.find((e) => e.event.type === 'ended')!.event).toMatchObject({ result: { winner: 0, reason: 'abandon' } });
  });

  it('finishes an arena at its end time although a pair of it never opened their game: the game ends within its grace, then the podium', async () => {
    // Two accounts join over REST and never open anything.
    const { code, arena, game } = await arenaWithPair(suite);
    // Its end comes now, while the pair's game sits at its opener.
    const endsAt = new Date(Date.now() + 200);
    await suite.db.prisma.arena.update({ where: { id: arena.id }, data: { endsAt } });

    expect(await endedMatch(suite.db, game.matchId, GRACE_MS + SWEEP_MS + 1000)).toMatchObject({ endReason: 'abort' });
    const row = await finishedArena(suite, code, 3000);
    console.info(`${engine}: the arena finished ${row.finishedAt!.getTime() - endsAt.getTime()} ms after its end time`);
    expect(row.finishedAt!.getTime() - endsAt.getTime()).toBeLessThan(GRACE_MS + SWEEP_MS + 1000);
  });
});
