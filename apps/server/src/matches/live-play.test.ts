import { randomUUID } from 'node:crypto';
import { newGame, play, replay, PRESETS, type Move } from '@oanquan/rules';
import { unpackEnvelope, type MatchEventEnvelope, type MatchSnapshot } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, newRoom, scriptedGame, startApp, TestClient } from '../testing/live.js';

describe.each(engines)('live play on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app.close();
  });

  async function client(token: string): Promise<TestClient> {
    const c = await TestClient.connect(url, token);
    clients.push(c);
    return c;
  }

  /** Two guests in a fresh room, seated 0 and 1. */
  async function seated(roomBody: unknown = {}) {
    const [alice, bob] = await Promise.all([newGuest(url), newGuest(url)]);
    const room = await newRoom(url, alice.token, roomBody);
    const a = await client(alice.token);
    const b = await client(bob.token);
    const joinA = await a.request('room:join', { code: room.code });
    const joinB = await b.request('room:join', { code: room.code });
    expect(joinA).toMatchObject({ ok: true, seat: 0 });
    expect(joinB).toMatchObject({ ok: true, seat: 1 });
    return { alice, bob, room, a, b, matchId: room.matchId };
  }

  /** Seated, and the opener won by seat 0 (rock beats scissors): seat 0 moves first. */
  async function started() {
    const match = await seated();
    await match.a.request('opener:choose', { matchId: match.matchId, choice: 'rock' });
    const ack = await match.b.request('opener:choose', { matchId: match.matchId, choice: 'scissors' });
    if (!ack.ok) throw new Error(ack.message);
    await match.a.waitForVersion(ack.version);
    return { ...match, version: ack.version };
  }

  async function stored(matchId: string) {
    const match = await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    const moves = await db.prisma.move.count({ where: { matchId } });
    return { version: match.version, status: match.status, position: match.position, moves };
  }

  function versions(events: MatchEventEnvelope[]): number[] {
    return events.map((e) => e.version);
  }

  it('plays a whole game: room, opener with a tie, every move, the same events for everyone, everything stored', async () => {
    const { a, b, room, matchId, alice } = await seated();
    const watcher = await client((await newGuest(url)).token);
    const watch = await watcher.request('room:join', { code: room.code });
    expect(watch).toMatchObject({ ok: true, seat: null });

    const described = await api<{ status: string; seats: unknown[] }>(url, `/api/rooms/${room.code}`);
    expect(described.body.status).toBe('opener');
    expect(described.body.seats).toEqual([{ id: alice.player.id, name: alice.player.name }, expect.objectContaining({ id: expect.any(String) })]);

    // Round 1 is a tie; the first choice stays hidden from the others until both are in.
    await a.request('opener:choose', { matchId, choice: 'paper' });
    await b.waitForVersion(a.version);
    expect(JSON.stringify(b.events.at(-1))).not.toContain('paper');
    await b.request('opener:choose', { matchId, choice: 'paper' });
    // Round 2: seat 1's scissors cut seat 0's paper, so seat 1 moves first.
    await b.request('opener:choose', { matchId, choice: 'scissors' });
    const opened = await a.request('opener:choose', { matchId, choice: 'paper' });
    expect(opened.ok).toBe(true);
    const rounds = a.events.filter((e) => e.event.type === 'opener-round').map((e) => e.event);
    expect(rounds).toEqual([
      { type: 'opener-round', round: 1, choices: ['paper', 'paper'], winner: null },
      { type: 'opener-round', round: 2, choices: ['paper', 'scissors'], winner: 1 },
    ]);
    expect(a.events.at(-1)?.event).toEqual({ type: 'started', first: 1, clocks: null, firstMoveDeadline: expect.any(String) });

    const moves = scriptedGame(PRESETS.classic, 1);
    let version = opened.ok ? opened.version : 0;
    for (const [i, move] of moves.entries()) {
      const mover = i % 2 === 0 ? b : a;
      const ack = await mover.request('move', { matchId, moveId: `m${i}`, version, square: move.square, dir: move.dir });
      if (!ack.ok) throw new Error(`move ${i}: ${ack.code} ${ack.message}`);
      version = ack.version;
    }
    await Promise.all([a, b, watcher].map((c) => c.waitForVersion(version)));

    // From the moment each joined, everyone saw every event once, in version order, the same ones.
    expect(versions(a.events)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
    for (const c of [b, watcher]) {
      const from = c.events[0]!.version;
      expect(versions(c.events)).toEqual(versions(a.events).slice(from - 1));
      expect(c.events).toEqual(a.events.slice(from - 1));
    }

    // The events carry the moves as played; the final position is the rules' replay of them.
    const carried = a.events.flatMap(({ event }) => (event.type === 'moved' ? [{ square: event.square, dir: event.dir }] : []));
    expect(carried).toEqual(moves);
    const replayed = replay({ rules: PRESETS.classic, first: 1 }, moves);
    if (!replayed.ok) throw new Error('replay failed');
    const final = replayed.positions.at(-1)!;
    expect(a.events.at(-1)?.event).toEqual({ type: 'ended', result: { winner: final.result!.winner, reason: final.result!.reason, score: final.result!.score }, ratings: null });

    // The database holds every move and every opener round.
    const rows = await db.prisma.move.findMany({ where: { matchId }, orderBy: { ply: 'asc' } });
    expect(rows.map((r): Move => ({ square: r.square, dir: r.dir as 1 | -1 }))).toEqual(moves);
    const openerRows = await db.prisma.openerRound.findMany({ where: { matchId }, orderBy: { round: 'asc' } });
    expect(openerRows.map((r) => [r.choice0, r.choice1, r.winner])).toEqual([
      ['paper', 'paper', null],
      ['paper', 'scissors', 1],
    ]);
    expect(await stored(matchId)).toMatchObject({ version, status: 'ended', position: final, moves: moves.length });
  });

  it('lets a spectator watch but rejects everything it tries', async () => {
    const { a, room, matchId } = await seated();
    const watcher = await client((await newGuest(url)).token);
    expect(await watcher.request('room:join', { code: room.code })).toMatchObject({ ok: true, seat: null });
    const before = await stored(matchId);
    expect(await watcher.request('opener:choose', { matchId, choice: 'rock' })).toMatchObject({ ok: false, code: 'NOT_A_PLAYER' });

    await a.request('opener:choose', { matchId, choice: 'rock' });
    await watcher.waitForVersion(before.version + 1);
    expect(watcher.events.at(-1)?.event).toEqual({ type: 'opener-chosen', seat: 0, round: 1, deadline: expect.any(String) });
    const watched = await stored(matchId);
    // The actor is checked before the phase: a spectator is told it does not play.
    expect(await watcher.request('move', { matchId, moveId: 'w1', version: watched.version, square: 1, dir: 1 })).toMatchObject({
      ok: false,
      code: 'NOT_A_PLAYER',
    });
  });

  it('keeps the seat of a player who comes back on another connection', async () => {
    const { alice, room } = await seated();
    const again = await client(alice.token);
    expect(await again.request('room:join', { code: room.code })).toMatchObject({ ok: true, seat: 0 });
  });

  describe('rejections change nothing', () => {
    it.each([
      ['a malformed payload', { square: 'three' }, 'BAD_REQUEST'],
      ['an unknown match', { matchId: randomUUID() }, 'MATCH_NOT_FOUND'],
      ['a stale version', { version: 0 }, 'STALE_VERSION'],
      ['an illegal move (opponent square)', { square: 8 }, 'ERR_NOT_YOUR_SQUARE'],
      ['an illegal move (mandarin square)', { square: 0 }, 'ERR_NOT_YOUR_SQUARE'],
    ])('%s', async (_name, change, code) => {
      const { a, matchId, version } = await started();
      const before = await stored(matchId);
      const ack = await a.request('move', { matchId, moveId: 'x1', version, square: 1, dir: 1, ...change });
      expect(ack).toMatchObject({ ok: false, code, message: expect.any(String) });
      expect(await stored(matchId)).toEqual(before);
    });

    it('a move out of turn', async () => {
      const { b, matchId, version } = await started();
      const before = await stored(matchId);
      expect(await b.request('move', { matchId, moveId: 'x1', version, square: 7, dir: 1 })).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
      expect(await stored(matchId)).toEqual(before);
    });

    it("a move by someone who holds no seat", async () => {
      const { matchId, version } = await started();
      const stranger = await client((await newGuest(url)).token);
      const before = await stored(matchId);
      expect(await stranger.request('move', { matchId, moveId: 'x1', version, square: 1, dir: 1 })).toMatchObject({ ok: false, code: 'NOT_A_PLAYER' });
      expect(await stored(matchId)).toEqual(before);
    });

    it('a move before the match is in play', async () => {
      const { a, matchId } = await seated();
      const before = await stored(matchId);
      expect(await a.request('move', { matchId, moveId: 'x1', version: before.version, square: 1, dir: 1 })).toMatchObject({
        ok: false,
        code: 'NOT_IN_PLAY',
      });
      expect(await stored(matchId)).toEqual(before);
    });

    it('a payload over the size limit, and the connection stays usable', async () => {
      const { a, matchId, version } = await started();
      const before = await stored(matchId);
      const ack = await a.request('move', { matchId, moveId: 'x1', version, square: 1, dir: 1, padding: 'x'.repeat(4000) });
      expect(ack).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
      expect(await stored(matchId)).toEqual(before);
      expect(await a.request('move', { matchId, moveId: 'x2', version, square: 1, dir: 1 })).toMatchObject({ ok: true });
    });

    it('a payload over the transport limit drops only that connection; the server goes on', async () => {
      const { a, b, matchId, version } = await started();
      const before = await stored(matchId);
      const dropped = new Promise((resolve) => a.socket.once('disconnect', resolve));
      (a.socket as unknown as { emit(...args: unknown[]): void }).emit('move', { matchId, moveId: 'x1', version, square: 1, dir: 1, padding: 'x'.repeat(64 * 1024) }, () => {});
      await dropped;
      expect(await stored(matchId)).toEqual(before);
      expect(await b.request('sync', { matchId, version })).toMatchObject({ ok: true, events: [] });
    });

    it('an unknown event', async () => {
      const { a, matchId } = await started();
      const before = await stored(matchId);
      const timed = a.socket.timeout(5000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<unknown> };
      for (const name of ['teleport', 'constructor', 'toString', '__proto__']) {
        expect(await timed.emitWithAck(name, { matchId })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
      }
      expect(await stored(matchId)).toEqual(before);
    });

    it('a forged or missing token is refused at the handshake', async () => {
      for (const token of ['forged-token', '']) {
        const failure = await TestClient.connect(url, token).catch((error: Error & { data?: unknown }) => error);
        expect(failure).toBeInstanceOf(Error);
        expect((failure as Error & { data?: unknown }).data).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
      }
      expect((await api(url, '/api/me', { token: 'forged-token' })).status).toBe(401);
    });
  });

  it('applies a move sent twice with one id once, and one of two moves sent at once for the same version', async () => {
    const { a, b, matchId, version } = await started();
    const payload = { matchId, moveId: 'twice', version, square: 2, dir: 1 as const };
    const [first, second] = await Promise.all([a.request('move', payload), a.request('move', payload)]);
    expect(first).toEqual({ ok: true, version: version + 1 });
    expect(second).toEqual(first);
    expect(await db.prisma.move.count({ where: { matchId } })).toBe(1);

    const now = (await stored(matchId)).version;
    const racing = await Promise.all([
      b.request('move', { matchId, moveId: 'r1', version: now, square: 7, dir: 1 }),
      b.request('move', { matchId, moveId: 'r2', version: now, square: 9, dir: -1 }),
    ]);
    expect(racing.filter((ack) => ack.ok)).toHaveLength(1);
    expect(racing.find((ack) => !ack.ok)).toMatchObject({ ok: false, code: expect.stringMatching(/STALE_VERSION|NOT_YOUR_TURN/) });
    expect(await db.prisma.move.count({ where: { matchId } })).toBe(2);
    const retry = await a.request('move', payload);
    expect(retry).toEqual(first);
  });

  it('rejects too many messages from one socket', async () => {
    const limited = await startApp(engine, { socketLimits: { rateBurst: 5, ratePerSecond: 1, maxEventBytes: 2048 } });
    try {
      const guest = await newGuest(limited.url);
      const c = await TestClient.connect(limited.url, guest.token);
      const matchId = randomUUID();
      const acks = await Promise.all(Array.from({ length: 12 }, () => c.request('sync', { matchId, version: 0 })));
      expect(acks.slice(0, 5).every((ack) => !ack.ok && ack.code === 'MATCH_NOT_FOUND')).toBe(true);
      expect(acks.slice(5).every((ack) => !ack.ok && ack.code === 'RATE_LIMITED')).toBe(true);
      c.close();
    } finally {
      await limited.app.close();
    }
  });

  it('gives a client that reconnects exactly the events it missed', async () => {
    const { alice, a, b, matchId, version } = await started();
    a.close();

    // Seat 0 (alice) moves first; a is gone, so alice plays from a new connection, then b answers.
    const alice2 = await client(alice.token);
    await alice2.request('sync', { matchId, version });
    const m1 = await alice2.request('move', { matchId, moveId: 'a1', version, square: 1, dir: 1 });
    if (!m1.ok) throw new Error(m1.code);
    await b.waitForVersion(m1.version);
    const state = await stored(matchId);
    const opened = play(newGame({ rules: PRESETS.classic, first: 0 }), { square: 1, dir: 1 });
    if (!opened.ok) throw new Error(opened.code);
    const bMove = opened.state.position.squares
      .map((count, square) => ({ count, square }))
      .find(({ count, square }) => square >= 7 && count > 0)!;
    const m2 = await b.request('move', { matchId, moveId: 'b1', version: state.version, square: bMove.square, dir: 1 });
    if (!m2.ok) throw new Error(m2.code);

    const back = await client(alice.token);
    const missed = await back.request('sync', { matchId, version });
    expect(missed.ok && 'events' in missed).toBe(true);
    if (!missed.ok || !('events' in missed)) return;
    await b.waitForVersion(m2.version);
    expect(missed.events.map(unpackEnvelope)).toEqual(b.events.filter((e) => e.version > version));
    expect(versions(missed.events.map(unpackEnvelope))).toEqual(Array.from({ length: m2.version - version }, (_, i) => version + i + 1));
  });

  it('answers a long gap or an unknown version with a snapshot', async () => {
    const { a, matchId, version } = await started();
    const ack = await a.request('sync', { matchId, version: version + 50 });
    expect(ack.ok && 'snapshot' in ack).toBe(true);
    const snapshot = (ack as { snapshot: MatchSnapshot }).snapshot;
    expect(snapshot).toMatchObject({ matchId, version, status: 'playing', first: 0, moves: [] });
    expect(snapshot.opener.rounds).toEqual([{ round: 1, choices: ['rock', 'scissors'], winner: 0 }]);
  });
});
