import { randomBytes } from 'node:crypto';
import { newGame } from '@oanquan/rules';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { engines, migratedDatabase, postgresAvailable, scratchTarget } from '../testing/databases.js';
import { CLEANUP_LOCK, StaleDataCleanup } from './stale-data-cleanup.js';

const DAY = 24 * 3600 * 1000;
const settings = { guestRetentionMs: 30 * DAY, idleRoomMs: DAY, endedSessionMs: 30 * DAY, batchSize: 2 };
const log = pino({ level: 'silent' });
const position = newGame().position as unknown as object;

type Phase = 'waiting' | 'opener' | 'ended' | 'playing' | 'aborted';

/** Rows as a stranger (or a real player) leaves them, aged as asked. */
function fixtures(db: Database, now: Date) {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return {
    guest: (age: number) => db.prisma.player.create({ data: { name: 'g', createdAt: ago(age) } }),
    account: (age: number) =>
      db.prisma.player.create({ data: { name: 'a', username: `a${age}`, usernameKey: `a${age}`, passwordHash: '$argon2id$…', createdAt: ago(age) } }),
    /** A session that ended (expired or signed out) this long ago, or one still live. */
    session: (playerId: string, ended: { expired?: number; revoked?: number }) =>
      db.prisma.session.create({
        data: {
          playerId,
          tokenHash: randomBytes(32).toString('hex'),
          expiresAt: ended.expired === undefined ? new Date(now.getTime() + DAY) : ago(ended.expired),
          revokedAt: ended.revoked === undefined ? null : ago(ended.revoked),
        },
      }),
    /** A room and its first match: waiting, in the opener with a round and events, started and ended, in play, or aborted before its first move. */
    room: async (age: number, creatorId: string | null, phase: Phase, seats: [string, string] | null = null) => {
      const room = await db.prisma.room.create({ data: { code: randomBytes(6).toString('hex'), rules: {}, createdById: creatorId, createdAt: ago(age) } });
      return { room, match: await match(room.id, 1, age, phase, seats) };
    },
    /** The room's next match (a rematch), this old. */
    rematch: (roomId: string, age: number, phase: Phase, seats: [string, string]) => match(roomId, 2, age, phase, seats),
  };

  async function match(roomId: string, number: number, age: number, phase: Phase, seats: [string, string] | null) {
    const at = new Date(now.getTime() - age);
    const started = phase === 'ended' || phase === 'playing' || phase === 'aborted';
    const row = await db.prisma.match.create({
      data: {
        roomId,
        number,
        rules: {},
        position,
        status: phase === 'aborted' ? 'ended' : phase,
        player0Id: seats?.[0] ?? null,
        player1Id: seats?.[1] ?? null,
        startedAt: started ? at : null,
        endedAt: phase === 'ended' || phase === 'aborted' ? at : null,
        endReason: phase === 'aborted' ? 'abort' : null,
        version: 1,
        createdAt: at,
      },
    });
    await db.prisma.matchEvent.create({ data: { matchId: row.id, version: 1, payload: {} } });
    if (phase === 'opener' || phase === 'aborted') await db.prisma.openerRound.create({ data: { matchId: row.id, round: 1, choice0: 'rock' } });
    return row;
  }
}

describe.each(engines)('the stale data cleanup on %s', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await migratedDatabase(engine);
  });
  afterAll(async () => {
    await db.close();
  });

  it('deletes idle rooms with their matches, events and rounds, then guests who never played, in batches; keeps everything used or recent', async () => {
    const now = new Date();
    const make = fixtures(db, now);
    const [played, opponent, lurker, recent, waiting, roomMaker, activeMaker] = await Promise.all([
      make.guest(40 * DAY),
      make.guest(40 * DAY),
      make.guest(40 * DAY),
      make.guest(2 * DAY),
      make.guest(40 * DAY),
      make.guest(40 * DAY),
      make.guest(40 * DAY),
    ]);
    const strangers = await Promise.all(Array.from({ length: 5 }, () => make.guest(31 * DAY)));
    // An account is never an unused guest, however old and idle.
    const account = await make.account(400 * DAY);
    const sessions = await Promise.all([
      make.session(account.id, {}),
      make.session(account.id, { expired: 2 * DAY }),
      make.session(account.id, { revoked: 3 * DAY }),
      make.session(account.id, { expired: 31 * DAY }),
      make.session(account.id, { revoked: 45 * DAY }),
      make.session(account.id, { expired: 60 * DAY, revoked: 90 * DAY }),
    ]);
    await db.prisma.queueEntry.create({ data: { playerId: waiting.id, pool: '3+2', rating: 1500, connection: 'c1' } });
    const finished = await make.room(40 * DAY, played.id, 'ended', [played.id, opponent.id]);
    const idle = [
      await make.room(2 * DAY, roomMaker.id, 'waiting'),
      await make.room(25 * 3600 * 1000, null, 'opener', [lurker.id, lurker.id]),
      ...(await Promise.all(Array.from({ length: 3 }, () => make.room(3 * DAY, null, 'waiting')))),
    ];
    const fresh = await make.room(3600 * 1000, activeMaker.id, 'waiting');

    const cleanup = new StaleDataCleanup(db, log, settings);
    // Idle rooms go first, so the lurker seated only in one of them goes in the same run.
    expect(await cleanup.run(now)).toEqual({ ran: true, rooms: 5, guests: 7, sessions: 3 });
    expect((await db.prisma.session.findMany({ where: { playerId: account.id }, select: { id: true } })).map((x) => x.id).sort()).toEqual(
      sessions.slice(0, 3).map((x) => x.id).sort(),
    );

    const rooms = await db.prisma.room.findMany({ select: { id: true } });
    expect(rooms.map((r) => r.id).sort()).toEqual([finished.room.id, fresh.room.id].sort());
    const idleMatches = idle.map((i) => i.match.id);
    expect(await db.prisma.match.count({ where: { id: { in: idleMatches } } })).toBe(0);
    expect(await db.prisma.matchEvent.count({ where: { matchId: { in: idleMatches } } })).toBe(0);
    expect(await db.prisma.openerRound.count({ where: { matchId: { in: idleMatches } } })).toBe(0);
    expect(await db.prisma.matchEvent.count({ where: { matchId: finished.match.id } })).toBe(1);

    const left = new Set((await db.prisma.player.findMany({ select: { id: true } })).map((p) => p.id));
    for (const kept of [played, opponent, recent, waiting, activeMaker, account]) expect(left.has(kept.id)).toBe(true);
    for (const gone of [roomMaker, lurker, ...strangers]) expect(left.has(gone.id)).toBe(false);
    expect(await cleanup.run(now)).toEqual({ ran: true, rooms: 0, guests: 0, sessions: 0 });
  });

  it('deletes rooms whose every match was aborted before its first move, once stale, with guests seated only there; keeps any room with a match played or in play', async () => {
    const now = new Date();
    const make = fixtures(db, now);
    const guest = () => make.guest(40 * DAY);
    const [stranger, other, rematcher, opponent, late, player, mover] = await Promise.all([guest(), guest(), guest(), guest(), guest(), guest(), guest()]);
    const unplayed = [
      await make.room(3 * DAY, stranger.id, 'aborted', [stranger.id, other.id]),
      await make.room(3 * DAY, null, 'aborted', [other.id, other.id]),
    ];
    // Aborted, then a rematch played to its end: that room keeps both its matches.
    const kept = await make.room(3 * DAY, rematcher.id, 'aborted', [rematcher.id, opponent.id]);
    const played = await make.rematch(kept.room.id, 2 * DAY, 'ended', [rematcher.id, opponent.id]);
    // Aborted an hour ago in an old room: not stale yet.
    const recent = await make.room(3 * DAY, null, 'aborted', [late.id, late.id]);
    await db.prisma.match.update({ where: { id: recent.match.id }, data: { endedAt: new Date(now.getTime() - 3600 * 1000) } });
    // In play, in an old room: no end reason, which must not pass for unplayed.
    const live = await make.room(3 * DAY, null, 'playing', [player.id, mover.id]);

    expect(await new StaleDataCleanup(db, log, settings).run(now)).toMatchObject({ ran: true, rooms: 2, guests: 2 });
    const matchIds = unplayed.map((u) => u.match.id);
    expect(await db.prisma.room.count({ where: { id: { in: unplayed.map((u) => u.room.id) } } })).toBe(0);
    expect(await db.prisma.matchEvent.count({ where: { matchId: { in: matchIds } } })).toBe(0);
    expect(await db.prisma.openerRound.count({ where: { matchId: { in: matchIds } } })).toBe(0);
    const matches = new Set((await db.prisma.match.findMany({ select: { id: true } })).map((m) => m.id));
    for (const stays of [kept.match, played, recent.match, live.match]) expect(matches.has(stays.id)).toBe(true);
    const left = new Set((await db.prisma.player.findMany({ select: { id: true } })).map((p) => p.id));
    for (const gone of [stranger, other]) expect(left.has(gone.id)).toBe(false);
    for (const stays of [rematcher, opponent, late, player, mover]) expect(left.has(stays.id)).toBe(true);
  });
});

// PGlite is one connection, so one cleaner at a time by construction; on PostgreSQL several processes share the database.
describe.runIf(postgresAvailable)('the stale data cleanup across processes on PostgreSQL', () => {
  let db: Database;
  let other: pg.Client;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const scratch = await scratchTarget('postgresql');
    drop = scratch.drop;
    db = await openDatabase(scratch.target, { migrationsDir: paths.migrations });
    other = new pg.Client({ connectionString: (scratch.target as { url: string }).url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await db?.close();
    await drop?.();
  });

  it('leaves the work to the process that holds the lock, and does it once the lock is free', async () => {
    const now = new Date();
    const make = fixtures(db, now);
    await Promise.all(Array.from({ length: 3 }, () => make.guest(40 * DAY)));
    await make.room(2 * DAY, null, 'waiting');
    const cleanup = new StaleDataCleanup(db, log, settings);

    await other.query('SELECT pg_advisory_lock($1)', [CLEANUP_LOCK]);
    expect(await cleanup.run(now)).toEqual({ ran: false });
    expect([await db.prisma.player.count(), await db.prisma.room.count()]).toEqual([3, 1]);

    await other.query('SELECT pg_advisory_unlock($1)', [CLEANUP_LOCK]);
    expect(await cleanup.run(now)).toEqual({ ran: true, rooms: 1, guests: 3, sessions: 0 });
    expect([await db.prisma.player.count(), await db.prisma.room.count()]).toEqual([0, 0]);
  });
});
