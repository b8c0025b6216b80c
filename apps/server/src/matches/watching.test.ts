import { describe, expect, it, vi } from 'vitest';
import { legalMoves, newGame, play } from '@oanquan/rules';
import { engines } from '../testing/databases.js';
import { newGuest, newRoom } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';
import { lockMatch } from '../match-records/match-store.js';
import { presenceWindowMs } from '../presence/presence-service.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(engines)('watching a match on %s', (engine) => {
  const server = appForSuite(engine, {}, { MAX_SOCKETS_PER_ADDRESS: '1000', MAX_SOCKETS_PER_PLAYER: '10' });
  const { client } = server;

  /** Two players in play, seat 0 to move; when each client received each event. */
  async function started(roomBody: unknown = {}) {
    const [alice, bob] = await Promise.all([newGuest(server.url), newGuest(server.url)]);
    const room = await newRoom(server.url, alice.token, roomBody);
    const [a, b] = await Promise.all([client(alice.token), client(bob.token)]);
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    const ack = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
    if (!ack.ok) throw new Error(ack.code);
    await Promise.all([a, b].map((c) => c.waitForVersion(ack.version)));
    return { alice, bob, room, a, b, matchId: room.matchId, version: ack.version };
  }

  /** Holds the match's row lock (on PGlite, the whole database) until `release` is called. */
  function holdMatch(matchId: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const done = server.db.prisma.$transaction(
      async (tx) => {
        await lockMatch(tx, matchId);
        locked();
        await released;
      },
      { timeout: 30_000 },
    );
    return { taken, release: async () => (release(), await done) };
  }

  it('a spectator join, a seated player coming back and a sync change nothing and wait for no lock', async () => {
    const { room, matchId, alice, version } = await started({ timeControl: { initialSeconds: 600, incrementSeconds: 0 } });
    const row = () => server.db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    const events = () => server.db.prisma.matchEvent.count({ where: { matchId } });
    const [before, eventsBefore] = [await row(), await events()];
    const [spectator, again, syncer] = await Promise.all([client((await newGuest(server.url)).token), client(alice.token), client((await newGuest(server.url)).token)]);

    // Only PostgreSQL lets another connection hold the row while the server reads; PGlite is one connection.
    const hold = engine === 'postgresql' ? holdMatch(matchId) : undefined;
    await hold?.taken;
    try {
      expect(await spectator.request('room:join', { code: room.code })).toMatchObject({ ok: true, seat: null, snapshot: { version, status: 'playing' } });
      expect(await again.request('room:join', { code: room.code })).toMatchObject({ ok: true, seat: 0, snapshot: { version } });
      expect(await syncer.request('sync', { matchId, version: version + 5 })).toMatchObject({ ok: true, snapshot: { version } });
    } finally {
      await hold?.release();
    }

    // The coalesced presence announcement has run (it counts the spectators) and wrote nothing either.
    await spectator.until(() => spectator.presence.at(-1)?.spectators === 2, 'the spectators counted');
    expect(await row()).toEqual(before);
    expect(await events()).toBe(eventsBefore);
  });

  it('presence is announced once per window during a burst of joins and leaves, and the last announcement is the final state', async () => {
    const { a, room } = await started();
    await a.until(() => a.presence.at(-1)?.seats[1].connected === true, 'both connected');
    const guests = await Promise.all(Array.from({ length: 8 }, () => newGuest(server.url)));
    const crowd = await Promise.all(Array.from({ length: 80 }, (_, i) => client(guests[i % guests.length]!.token)));

    const arrivals: number[] = [];
    a.socket.on('presence', () => arrivals.push(Date.now()));

    const count = async (burst: () => Promise<unknown>, spectators: number) => {
      const from = arrivals.length;
      const start = Date.now();
      await burst();
      await a.until(() => a.presence.at(-1)?.spectators === spectators, `${spectators} spectators announced`);
      // Anything still coming would show up within a window or two.
      await sleep(3 * presenceWindowMs);
      const messages = arrivals.length - from;
      expect(a.presence.at(-1)?.spectators).toBe(spectators);
      expect(messages).toBeGreaterThanOrEqual(1);
      expect(messages).toBeLessThanOrEqual(Math.floor((arrivals.at(-1)! - start) / presenceWindowMs) + 1);
      expect(messages).toBeLessThan(crowd.length / 4);
    };

    await count(() => Promise.all(crowd.map((c) => c.request('room:join', { code: room.code }))), guests.length);
    await count(
      () => Promise.all(crowd.map((c, i) => (i % 2 ? c.request('room:leave', { code: room.code }) : Promise.resolve(c.close())))),
      0,
    );
  });

  it('a move is charged up to when it arrived, even while the match is held, and is not lost on time for the wait', async () => {
    const initialMs = 2000;
    const { a, b, matchId, version: startVersion } = await started({ timeControl: { initialSeconds: initialMs / 1000, incrementSeconds: 0 } });
    // No clock runs before the first move; the second mover's starts when the first move is applied.
    expect(await a.request('move', { matchId, moveId: 'first', version: startVersion, square: 1, dir: 1 })).toMatchObject({ ok: true });
    const version = startVersion + 1;
    await b.waitForVersion(version);
    const first = b.events.find((e) => e.version === version)!.event;
    if (first.type !== 'moved' || !first.clocks) throw new Error('expected a timed move');
    // Seat 1's clock starts once the first move's sowing allowance is over.
    const clockStartedAt = Date.parse(first.clocks.startsAt ?? first.clocks.asOf);
    const opened = play(newGame({ first: 0 }), { square: 1, dir: 1 });
    if (!opened.ok) throw new Error(opened.code);
    const reply = legalMoves(opened.state)[0]!;
    await sleep(clockStartedAt + 600 - Date.now());
    const hold = holdMatch(matchId);
    await hold.taken;
    const sentAt = Date.now();
    const acked = b.request('move', { matchId, moveId: 'held', version, ...reply });
    // Held past the mover's deadline, so a move judged when the lock is free would be late; but for less than
    // the two seconds Prisma waits to start a transaction, which a move meets on PGlite's one connection.
    await sleep(clockStartedAt + initialMs + 300 - Date.now());
    await hold.release();

    const ack = await acked;
    expect(ack).toMatchObject({ ok: true, version: version + 1 });
    await b.waitForVersion(version + 1);
    const moved = b.events.find((e) => e.version === version + 1)!.event;
    if (moved.type !== 'moved') throw new Error(`expected a move, got ${moved.type}`);
    const charged = initialMs - moved.clocks!.remainingMs[1];
    // From the clock's start to the move's arrival, which is just after it was sent.
    expect(charged).toBeGreaterThanOrEqual(sentAt - clockStartedAt);
    expect(charged).toBeLessThan(sentAt - clockStartedAt + 500);
    // The opponent's clock starts when the move is applied: the wait costs nobody.
    expect(moved.clocks?.remainingMs[0]).toBe(first.clocks.remainingMs[0]);
  });

  it('leaving a room one is not in, or one that does not exist, is answered and logs no warning', async () => {
    const c = await client((await newGuest(server.url)).token);
    const warn = vi.spyOn(server.app.http.log, 'warn');
    const error = vi.spyOn(server.app.http.log, 'error');
    try {
      for (let i = 0; i < 10; i++) expect(await c.request('room:leave', { code: 'NoSuchRoom1' })).toEqual({ ok: true });
      expect(await c.request('room:join', { code: 'NoSuchRoom1' })).toMatchObject({ ok: false, code: 'ROOM_NOT_FOUND' });
      await sleep(3 * presenceWindowMs);
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
