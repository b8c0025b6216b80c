import { parseRecord, PRESETS, replay } from '@oanquan/rules';
import type { MatchList, MatchRecord, MatchSnapshot } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { api, newGuest, newRoom, scriptedGame, TestClient } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

const GRACE_MS = 400;

describe.each(engines)('the match lifecycle on %s', (engine) => {
  const server = appForSuite(engine, {}, { ABANDON_GRACE_MS: String(GRACE_MS) });
  const { client } = server;

  /** Two players and a spectator in a room whose opener seat 0 has won. */
  async function started(roomBody: unknown = {}) {
    const [alice, bob, carol] = await Promise.all([newGuest(server.url), newGuest(server.url), newGuest(server.url)]);
    const room = await newRoom(server.url, alice.token, roomBody);
    const [a, b, watcher] = await Promise.all([client(alice.token), client(bob.token), client(carol.token)]);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await watcher.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'paper' });
    const ack = await b.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    if (!ack.ok) throw new Error(ack.code);
    await Promise.all([a, b, watcher].map((c) => c.waitForVersion(ack.version)));
    return { alice, bob, room, a, b, watcher, matchId: room.matchId, version: ack.version };
  }

  const lastEvent = (c: TestClient) => c.events.at(-1)?.event;
  const endedWith = (c: TestClient) => c.events.find((e) => e.event.type === 'ended')?.event;

  it('ends the match when the running clock runs out, with no message from anyone; increments are added and the record adds up', async () => {
    const { a, b, watcher, matchId, version } = await started({ timeControl: { initialSeconds: 2, incrementSeconds: 1 } });
    const startedEvent = a.events.find((e) => e.event.type === 'started')!.event;
    // No clock runs before the first move: the first-move deadline bounds it instead.
    expect(startedEvent).toMatchObject({ type: 'started', first: 0, clocks: { remainingMs: [2000, 2000], running: null }, firstMoveDeadline: expect.any(String) });

    const m1 = await a.request('move', { matchId, moveId: 'a1', version, square: 1, dir: 1 });
    if (!m1.ok) throw new Error(m1.code);
    const moved = a.events.at(-1)!.event;
    if (moved.type !== 'moved') throw new Error('expected a move');
    // Seat 0's first move was not charged; the 1 s increment comes on top.
    expect(moved.clocks).toMatchObject({ running: 1, remainingMs: [3000, 2000] });

    // Seat 1 never moves: about 2 s after the sowing allowance the server ends it by itself.
    await Promise.all([a, b, watcher].map((c) => c.until(() => endedWith(c) !== undefined, 'the timeout', 15_000)));
    for (const c of [a, b, watcher]) expect(endedWith(c)).toEqual({ type: 'ended', result: { winner: 0, reason: 'timeout', score: null }, ratings: null });

    const record = (await api<MatchRecord>(server.url, `/api/matches/${matchId}`)).body;
    expect(record.result).toEqual({ winner: 0, reason: 'timeout', score: null });
    expect(record.timeControl).toEqual({ initialSeconds: 2, incrementSeconds: 1 });
    // The first mover's remaining time = initial + increment, however long the first move took.
    expect(record.moves[0]!.remainingMs).toBe(2000 + 1000);
    const late = await b.request('move', { matchId, moveId: 'b1', version: m1.version, square: 7, dir: 1 });
    expect(late).toMatchObject({ ok: false, code: 'NOT_IN_PLAY' });
  });

  it('resign: the other player wins, and everyone is told', async () => {
    const { b, a, watcher, matchId } = await started();
    const ack = await b.request('resign', { matchId });
    expect(ack.ok).toBe(true);
    for (const c of [a, b, watcher]) {
      await c.waitForVersion(ack.ok ? ack.version : 0);
      expect(lastEvent(c)).toEqual({ type: 'ended', result: { winner: 0, reason: 'resign', score: null }, ratings: null });
    }
    // The actor is checked first: a spectator is told they do not play, whatever the match's state.
    expect(await watcher.request('resign', { matchId })).toMatchObject({ ok: false, code: 'NOT_A_PLAYER' });
    expect(await a.request('resign', { matchId })).toMatchObject({ ok: false, code: 'NOT_IN_PLAY' });
  });

  it('abort: allowed before the first move, with no result; refused after it', async () => {
    const first = await started();
    const ack = await first.b.request('abort', { matchId: first.matchId });
    expect(ack.ok).toBe(true);
    await first.watcher.waitForVersion(ack.ok ? ack.version : 0);
    expect(lastEvent(first.watcher)).toEqual({ type: 'ended', result: { winner: null, reason: 'abort', score: null }, ratings: null });

    const second = await started();
    await second.a.request('move', { matchId: second.matchId, moveId: 'a1', version: second.version, square: 1, dir: 1 });
    expect(await second.b.request('abort', { matchId: second.matchId })).toMatchObject({ ok: false, code: 'NOT_ALLOWED_NOW' });
    expect(await second.watcher.request('abort', { matchId: second.matchId })).toMatchObject({ ok: false, code: 'NOT_A_PLAYER' });
  });

  it('abandonment: both are told of the disconnection and the countdown; the win can be claimed once it runs out', async () => {
    const { a, b, watcher, matchId } = await started();
    await a.until(() => a.presence.at(-1)?.seats[1].connected === true, 'both connected');
    const [seenByA, seenByWatcher] = [a.presence.length, watcher.presence.length];
    b.close();
    const gone = (c: TestClient, from: number) => c.presence.slice(from).find((p) => p.matchId === matchId && !p.seats[1].connected);
    await a.until(() => gone(a, seenByA) !== undefined, 'the disconnection');
    const told = gone(a, seenByA)!;
    expect(told.seats[0].connected).toBe(true);
    expect(told.spectators).toBe(1);
    const claimableAt = Date.parse(told.seats[1].claimableAt!);
    expect(claimableAt).toBeGreaterThan(Date.now() - GRACE_MS);
    await watcher.until(() => gone(watcher, seenByWatcher) !== undefined, 'the spectator told');

    const early = await a.request('claim', { matchId });
    if (Date.now() < claimableAt) expect(early).toMatchObject({ ok: false, code: 'NOT_ALLOWED_NOW' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, claimableAt - Date.now()) + 50));
    const claimed = early.ok ? early : await a.request('claim', { matchId });
    expect(claimed.ok).toBe(true);
    await watcher.waitForVersion(claimed.ok ? claimed.version : 0);
    expect(endedWith(watcher)).toEqual({ type: 'ended', result: { winner: 0, reason: 'abandon', score: null }, ratings: null });
  });

  describe('with a 300 ms opener', () => {
    const quick = appForSuite(engine, {}, { OPENER_TIMEOUT_MS: '300', ABANDON_GRACE_MS: String(GRACE_MS) });

    it('opener timeout: a player who chose wins the toss when the other does not choose in time', async () => {
      const [alice, bob] = await Promise.all([newGuest(quick.url), newGuest(quick.url)]);
      const room = await newRoom(quick.url, alice.token);
      const a = await quick.client(alice.token);
      const b = await quick.client(bob.token);
      await a.request('room:join', { code: room.code });
      await b.request('room:join', { code: room.code });
      const chose = Date.now();
      await b.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      await a.until(() => a.events.some((e) => e.event.type === 'opener-chosen'), 'the choice');
      const chosen = a.events.find((e) => e.event.type === 'opener-chosen')!.event;
      expect(chosen).toMatchObject({ seat: 1, round: 1 });
      const deadline = Date.parse((chosen as { deadline: string }).deadline);
      expect(deadline - chose).toBeGreaterThanOrEqual(250);
      expect(deadline - chose).toBeLessThan(1000);
      await a.until(() => a.events.some((e) => e.event.type === 'started'), 'the forfeit', 6000);
      expect(a.events.slice(-2).map((e) => e.event)).toEqual([
        { type: 'opener-forfeit', round: 1, winner: 1 },
        { type: 'started', first: 1, clocks: null, firstMoveDeadline: expect.any(String) },
      ]);
      expect(await a.request('opener:choose', { matchId: room.matchId, choice: 'paper' })).toMatchObject({ ok: false, code: 'NOT_IN_OPENER' });

      // A hand chosen after the deadline loses the toss, whether or not the sweep has run yet.
      const late = await newRoom(quick.url, alice.token);
      await a.request('room:join', { code: late.code });
      await b.request('room:join', { code: late.code });
      await a.request('opener:choose', { matchId: late.matchId, choice: 'scissors' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      // Taken and then outranked by the deadline, or refused when the sweep has already called the toss: either way it loses.
      const lateHand = await b.request('opener:choose', { matchId: late.matchId, choice: 'rock' });
      expect(lateHand.ok || lateHand.code === 'NOT_IN_OPENER').toBe(true);
      await a.until(() => a.events.some((e) => e.matchId === late.matchId && e.event.type === 'started'), 'the late opener');
      expect(a.events.filter((e) => e.matchId === late.matchId).map((e) => e.event.type)).toEqual(['seated', 'seated', 'opener-chosen', 'opener-forfeit', 'started']);
      expect(a.events.find((e) => e.matchId === late.matchId && e.event.type === 'started')!.event).toMatchObject({ first: 0 });
    });

    it('tells the present player when an opponent who left during the opener becomes claimable', async () => {
      const [alice, bob] = await Promise.all([newGuest(quick.url), newGuest(quick.url)]);
      const room = await newRoom(quick.url, alice.token);
      const a = await quick.client(alice.token);
      const b = await TestClient.connect(quick.url, bob.token);
      await a.request('room:join', { code: room.code });
      await b.request('room:join', { code: room.code });
      b.close();
      await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      await a.until(() => a.events.some((e) => e.event.type === 'started'), 'the forfeit', 6000);
      // During the opener nothing is claimable, so a countdown can only come from the start.
      await a.until(() => a.presence.some((p) => p.seats[1].claimableAt !== null), 'the claim countdown');
      expect(a.presence.at(-1)?.seats[1].connected).toBe(false);
    });
  });

  it('room:leave: a spectator who leaves stops counting and stops receiving events', async () => {
    const { a, watcher, room, matchId, version } = await started();
    await a.until(() => a.presence.at(-1)?.spectators === 1, 'one spectator');
    expect(await watcher.request('room:leave', { code: room.code })).toEqual({ ok: true });
    await a.until(() => a.presence.at(-1)?.spectators === 0, 'no spectator');
    const ack = await a.request('move', { matchId, moveId: 'a1', version, square: 1, dir: 1 });
    if (!ack.ok) throw new Error(ack.code);
    await a.waitForVersion(ack.version);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watcher.version).toBe(version);
  });

  it('rematch: offered by one, accepted by the other, a new match with a new opener that spectators follow', async () => {
    const { a, b, watcher, matchId, room, alice, bob } = await started();
    await a.request('resign', { matchId });
    const offer = await a.request('rematch', { matchId });
    if (!offer.ok) throw new Error(offer.code);
    await b.waitForVersion(offer.version);
    expect(lastEvent(b)).toEqual({ type: 'rematch-offered', seat: 0 });
    const accept = await b.request('rematch', { matchId });
    if (!accept.ok) throw new Error(accept.code);
    await watcher.waitForVersion(accept.version);
    const rematch = lastEvent(watcher);
    if (rematch?.type !== 'rematch') throw new Error('expected the rematch event');
    expect(rematch.matchId).not.toBe(matchId);

    const joined = await watcher.request('room:join', { code: room.code });
    const snapshot = (joined as { snapshot: MatchSnapshot }).snapshot;
    expect(snapshot).toMatchObject({ matchId: rematch.matchId, number: 2, status: 'opener', seats: [alice.player, bob.player] });
    // The new match runs its own opener; its events reach the room too.
    const chose = await b.request('opener:choose', { matchId: rematch.matchId, choice: 'rock' });
    expect(chose.ok).toBe(true);
    await watcher.until(() => watcher.events.some((e) => e.matchId === rematch.matchId), 'the new match in the room');
  });

  it('serves a finished match whole: it replays to the stored result and its text record parses to the same moves', async () => {
    const { a, b, matchId, version } = await started();
    const moves = scriptedGame(PRESETS.classic, 0, 3);
    let v = version;
    for (const [i, move] of moves.entries()) {
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId, moveId: `m${i}`, version: v, ...move });
      if (!ack.ok) throw new Error(ack.code);
      v = ack.version;
    }
    const record = (await api<MatchRecord>(server.url, `/api/matches/${matchId}`)).body;
    expect(record.status).toBe('ended');
    expect(record.opener).toEqual([{ round: 1, choices: ['paper', 'rock'], winner: 0, at: expect.any(String) }]);
    const replayed = replay({ rules: record.rules, first: record.first! }, record.moves.map(({ square, dir }) => ({ square, dir })));
    if (!replayed.ok) throw new Error('the record does not replay');
    const result = replayed.positions.at(-1)!.result!;
    expect(record.result).toEqual({ winner: result.winner, reason: result.reason, score: result.score });

    const response = await fetch(`${server.url}/api/matches/${matchId}/record`);
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    const parsed = parseRecord(await response.text());
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(parsed.record.moves).toEqual(moves);
    expect(parsed.record.first).toBe(0);
  });

  it('lists finished matches newest first, page by page, and by player; live ones for spectators', async () => {
    const [p, q] = await Promise.all([newGuest(server.url), newGuest(server.url)]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const room = await newRoom(server.url, p.token);
      const [cp, cq] = await Promise.all([client(p.token), client(q.token)]);
      await cp.request('room:join', { code: room.code });
      await cq.request('room:join', { code: room.code });
      await cp.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      await cq.request('opener:choose', { matchId: room.matchId, choice: 'paper' });
      await cp.request('resign', { matchId: room.matchId });
      ids.push(room.matchId);
    }
    const pages: string[][] = [];
    let before: string | null = null;
    do {
      const query: string = `/api/matches?player=${p.player.id}&limit=2${before ? `&before=${before}` : ''}`;
      const page: MatchList = (await api<MatchList>(server.url, query)).body;
      pages.push(page.matches.map((m) => m.id));
      expect(page.matches.every((m) => m.players.some((pl) => pl?.id === p.player.id) && m.status === 'ended')).toBe(true);
      before = page.next;
    } while (before);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...ids].reverse());

    const everyone = (await api<MatchList>(server.url, '/api/matches?limit=100')).body.matches;
    expect(everyone.length).toBeGreaterThanOrEqual(5);
    const ends = everyone.map((m) => Date.parse(m.endedAt!));
    expect(ends).toEqual([...ends].sort((x, y) => y - x));

    const { matchId } = await started();
    const live = (await api<MatchList>(server.url, '/api/matches?status=live&limit=100')).body.matches;
    expect(live.map((m) => m.id)).toContain(matchId);
    expect(live.every((m) => m.status === 'playing' || m.status === 'opener')).toBe(true);
    expect((await api(server.url, '/api/matches?limit=0')).status).toBe(400);
    expect((await api(server.url, '/api/matches?before=nonsense')).status).toBe(400);
    const farPast = Buffer.from('-200000-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000').toString('base64url');
    expect((await api(server.url, `/api/matches?before=${farPast}`)).status).toBe(400);
  });
});
