import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { Accounts } from '../players/accounts.js';
import { PlayerService } from '../players/player-service.js';
import { hashToken, newToken } from '../players/tokens.js';
import { engines, scratchTarget } from '../testing/databases.js';
import { openDatabase, type DatabaseTarget } from './database.js';

const ACCOUNTS = '20261201010000_accounts';

/**
 * A database filled by the code before accounts (guests whose token hash sat
 * on the player row) is migrated: every guest still signs in with the token
 * their browser holds, and keeps their matches, moves, rating and queue place.
 */
describe.each(engines)('the accounts migration on %s', (engine) => {
  let tmp: string;
  let target: DatabaseTarget;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'oanquan-accounts-migration-'));
    if (engine === 'pglite') {
      target = { kind: 'pglite', dataDir: path.join(tmp, 'data') };
      drop = async () => {};
    } else {
      ({ target, drop } = await scratchTarget(engine));
    }
  });
  afterEach(async () => {
    await drop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('turns every guest token into a live session and loses nothing', async () => {
    const before = path.join(tmp, 'migrations-before');
    const all = (await readdir(paths.migrations, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    const earlier = all.filter((name) => name < ACCOUNTS);
    expect(all).toContain(ACCOUNTS);
    for (const name of earlier) await cp(path.join(paths.migrations, name), path.join(before, name), { recursive: true });

    const old = await openDatabase(target, { migrationsDir: before });
    const tokens = [newToken(), newToken()];
    const ids: string[] = [];
    // As the code before accounts wrote them: the token's SHA-256 on the player row.
    for (const [i, token] of tokens.entries()) {
      const rows = await old.prisma.$queryRawUnsafe<Array<{ id: string }>>(
        `INSERT INTO player (id, name, token_hash, rating, deviation, volatility, rated_games, created_at)
         VALUES (gen_random_uuid(), $1, $2, $3, 200, 0.06, 4, now() - interval '3 days') RETURNING id`,
        `Khách ${i}`,
        hashToken(token),
        1500 + 100 * i,
      );
      ids.push(rows[0]!.id);
    }
    const [room] = await old.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO room (id, code, rules, created_by_id, rated) VALUES (gen_random_uuid(), 'oldroom1', '{}', $1::uuid, true) RETURNING id`,
      ids[0],
    );
    const [match] = await old.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO match (id, room_id, number, status, rules, player0_id, player1_id, first, version, position, winner, end_reason, rated, rated_at, rating_changes, ended_at)
       VALUES (gen_random_uuid(), $1::uuid, 1, 'ended', '{}', $2::uuid, $3::uuid, 0, 9, '{}', 1, 'resign', true, now(), '[{"before":1500,"after":1490},{"before":1600,"after":1610}]', now())
       RETURNING id`,
      room!.id,
      ids[0],
      ids[1],
    );
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO move (id, match_id, ply, move_id, player_id, square, dir, version) VALUES (gen_random_uuid(), $1::uuid, 1, 'm1', $2::uuid, 2, 1, 5)`,
      match!.id,
      ids[0],
    );
    await old.prisma.$executeRawUnsafe(`INSERT INTO queue_entry (player_id, pool, rating, connection) VALUES ($1::uuid, '3+2', 1600, 'sock-1')`, ids[1]);
    await old.close();

    const db = await openDatabase(target, { migrationsDir: paths.migrations });
    try {
      expect(db.migrations).toEqual({ applied: all.filter((name) => name >= ACCOUNTS), alreadyApplied: earlier });
      const players = new PlayerService(db);
      for (const [i, token] of tokens.entries()) {
        expect(await players.authenticate(token)).toEqual({ id: ids[i], name: `Khách ${i}` });
      }
      const sessions = await db.prisma.session.findMany({ orderBy: { playerId: 'asc' } });
      expect(sessions).toHaveLength(2);
      for (const session of sessions) {
        expect(session.revokedAt).toBeNull();
        expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
        expect(session.createdAt.getTime()).toBeLessThan(Date.now() - 2 * 24 * 3600 * 1000);
      }
      expect(await db.prisma.player.findMany({ orderBy: { rating: 'asc' }, select: { id: true, rating: true, deviation: true, ratedGames: true, username: true, passwordHash: true } })).toEqual([
        { id: ids[0], rating: 1500, deviation: 200, ratedGames: 4, username: null, passwordHash: null },
        { id: ids[1], rating: 1600, deviation: 200, ratedGames: 4, username: null, passwordHash: null },
      ]);
      expect(await db.prisma.match.findUniqueOrThrow({ where: { id: match!.id } })).toMatchObject({
        player0Id: ids[0],
        player1Id: ids[1],
        winner: 1,
        rated: true,
        ratingChanges: [{ before: 1500, after: 1490 }, { before: 1600, after: 1610 }],
      });
      expect(await db.prisma.move.count({ where: { matchId: match!.id, playerId: ids[0] } })).toBe(1);
      expect(await db.prisma.queueEntry.findUniqueOrThrow({ where: { playerId: ids[1] } })).toMatchObject({ pool: '3+2', rated: false });

      // A migrated guest keeps their account like any other.
      const identity = await players.identify(tokens[0]);
      await new Accounts(db, players.sessions, players).keep(identity, 'khach_cu', 'long enough');
      expect(await players.identify(tokens[0])).toMatchObject({ player: { id: ids[0] }, username: 'khach_cu' });
    } finally {
      await db.close();
    }
  });
});
