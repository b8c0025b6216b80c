import { PRESETS } from '@oanquan/rules';
import type { MatchList, MatchSnapshot } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, newRoom, scriptedGame, startApp, TestClient } from '../testing/live.js';

const GRACE_MS = 400;
const FIRST_MOVE_MS = 700;

/** Matches that end with nobody asking: the first move never came, or both players are gone. */
describe.each(engines)('matches that end by themselves on %s', (engine) => {
  let patient: Awaited<ReturnType<typeof startApp>>;
  let hasty: Awaited<ReturnType<typeof startApp>>;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    patient = await startApp(engine, {}, { ABANDON_GRACE_MS: String(GRACE_MS), FIRST_MOVE_TIMEOUT_MS: '60000' });
    hasty = await startApp(engine, {}, { FIRST_MOVE_TIMEOUT_MS: String(FIRST_MOVE_MS) });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await patient?.app.close();
    await hasty?.app.close();
  });

  /** Two players and a spectator in a room; with `start`, the opener is played and seat 0 moves first. */
  async function seated(app: { url: string }, roomBody: unknown = {}, start = true) {
    const [alice, bob, carol] = await Promise.all([newGuest(app.url), newGuest(app.url), newGuest(app.url)]);
    const room = await newRoom(app.url, alice.token, roomBody);
    const [a, b, watcher] = await Promise.all([alice, bob, carol].map((g) => TestClient.connect(app.url, g.token)));
    clients.push(a!, b!, watcher!);
    await a!.request('room:join', { code: room.code });
    await b!.request('room:join', { code: room.code });
    await watcher!.request('room:join', { code: room.code });
    let version = 0;
    if (start) {
      await a!.request('opener:choose', { matchId: room.matchId, choice: 'paper' });
      const ack = await b!.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
      await watcher!.waitForVersion(version);
    }
    return { a: a!, b: b!, watcher: watcher!, room, matchId: room.matchId, version };
  }

  const ended = (c: TestClient) => c.events.find((e) => e.event.type === 'ended')?.event;
  const live = async (url: string) => (await api<MatchList>(url, '/api/matches?status=live&limit=100')).body.matches.map((m) => m.id);

  it('aborts, unrated and not lost on time, a match whose first mover never moves; the deadline is announced and no clock runs before it', async () => {
    const before = Date.now();
    const { a, b, watcher, room, matchId } = await seated(hasty, { timeControl: { initialSeconds: 60, incrementSeconds: 0 } });
    const started = watcher.events.find((e) => e.event.type === 'started')!.event;
    if (started.type !== 'started') throw new Error('expected the start');
    const deadline = Date.parse(started.firstMoveDeadline);
    expect(deadline).toBeGreaterThanOrEqual(before + FIRST_MOVE_MS);
    expect(started.clocks).toMatchObject({ remainingMs: [60_000, 60_000], running: null });
    const joined = await b.request('room:join', { code: room.code });
    expect((joined as { snapshot: MatchSnapshot }).snapshot.firstMoveDeadline).toBe(started.firstMoveDeadline);

    await Promise.all([a, b, watcher].map((c) => c.until(() => ended(c) !== undefined, 'the abort', 8000)));
    for (const c of [a, b, watcher]) expect(ended(c)).toEqual({ type: 'ended', result: { winner: null, reason: 'abort', score: null }, ratings: null });
    expect(Date.parse(watcher.events.find((e) => e.event.type === 'ended')!.at)).toBeGreaterThanOrEqual(deadline);
    expect(await live(hasty.url)).not.toContain(matchId);
    // Stored, and both clocks untouched: the first mover was not charged the wait.
    const row = await hasty.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    expect(row).toMatchObject({ status: 'ended', endReason: 'abort', winner: null, clock0Ms: 60_000, clock1Ms: 60_000, ratedAt: null });
  });

  it('keeps a match whose first move came in time; the deadline is gone from the snapshot', async () => {
    const { a, watcher, room, matchId, version } = await seated(hasty);
    const moved = await a.request('move', { matchId, moveId: 'a1', version, square: 1, dir: 1 });
    expect(moved.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, FIRST_MOVE_MS + 2500));
    const joined = await watcher.request('room:join', { code: room.code });
    const snapshot = (joined as { snapshot: MatchSnapshot }).snapshot;
    expect(snapshot).toMatchObject({ status: 'playing', firstMoveDeadline: null });
    expect(ended(watcher)).toBeUndefined();
  });

  it('ends an untimed match both players left after the grace, with no winner; one player gone is not enough', async () => {
    const { a, b, watcher, matchId, version } = await seated(patient);
    const [first, second] = scriptedGame(PRESETS.classic, 0);
    const m1 = await a.request('move', { matchId, moveId: 'a1', version, ...first });
    if (!m1.ok) throw new Error(m1.code);
    const m2 = await b.request('move', { matchId, moveId: 'b1', version: m1.version, ...second });
    if (!m2.ok) throw new Error(m2.code);
    expect(await live(patient.url)).toContain(matchId);

    b.close();
    // Past the grace and a sweep: the one still here may claim, nothing ends by itself.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS + 2500));
    expect(ended(watcher)).toBeUndefined();
    a.close();
    await watcher.until(() => ended(watcher) !== undefined, 'the abandonment', 8000);
    expect(ended(watcher)).toEqual({ type: 'ended', result: { winner: null, reason: 'abandon', score: null }, ratings: null });
    expect(await live(patient.url)).not.toContain(matchId);
    expect(await patient.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } })).toMatchObject({ status: 'ended', endReason: 'abandon', winner: null, ratedAt: null });
  });

  it('aborts a match both left before its first move, and one both left during the opener', async () => {
    const playing = await seated(patient);
    const opener = await seated(patient, {}, false);
    await opener.a.request('opener:choose', { matchId: opener.matchId, choice: 'rock' });
    for (const c of [playing.a, playing.b, opener.a, opener.b]) c.close();
    for (const { watcher } of [playing, opener]) {
      await watcher.until(() => ended(watcher) !== undefined, 'the abort', 8000);
      expect(ended(watcher)).toEqual({ type: 'ended', result: { winner: null, reason: 'abort', score: null }, ratings: null });
    }
    expect(await live(patient.url)).not.toContain(playing.matchId);
    expect(await live(patient.url)).not.toContain(opener.matchId);
  });
});
