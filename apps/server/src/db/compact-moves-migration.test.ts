import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { matchEventEnvelope } from '@oanquan/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { engines, scratchTarget } from '../testing/databases.js';
import { openDatabase, type DatabaseTarget } from './database.js';

const COMPACT = '20261202060000_compact_moved_events';

/** A `moved` event as it was stored before moves were compact: the move as listed, the ply's events, the position. */
const fullMoved = {
  type: 'moved',
  move: { ply: 1, seat: 0, square: 2, dir: 1, notation: '2>', remainingMs: 178000 },
  events: [{ type: 'pickup', square: 2, count: 5 }, { type: 'drop', square: 3 }],
  position: { squares: [10, 5, 0, 6, 6, 6, 10, 5, 5, 5, 5, 5], toMove: 1, ply: 1 },
  clocks: { remainingMs: [178000, 180000], running: 1, asOf: '2026-12-02T05:00:01.000Z', startsAt: '2026-12-02T05:00:04.070Z' },
};

/** Stored events written before the change are rewritten to the compact shape: a sync across it answers them as new ones. */
describe.each(engines)('the compact moves migration on %s', (engine) => {
  let tmp: string;
  let target: DatabaseTarget;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'oanquan-compact-migration-'));
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

  it('keeps the move and the clocks of a stored move, and leaves other events alone', async () => {
    const before = path.join(tmp, 'migrations-before');
    const all = (await readdir(paths.migrations, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    expect(all).toContain(COMPACT);
    for (const name of all.filter((name) => name < COMPACT)) await cp(path.join(paths.migrations, name), path.join(before, name), { recursive: true });

    const old = await openDatabase(target, { migrationsDir: before });
    const [player] = await old.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO player (id, name, rating, deviation, volatility, rated_games) VALUES (gen_random_uuid(), 'Lan', 1500, 350, 0.06, 0) RETURNING id`,
    );
    const [room] = await old.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO room (id, code, rules, created_by_id) VALUES (gen_random_uuid(), 'compact1', '{}', $1::uuid) RETURNING id`,
      player!.id,
    );
    const [match] = await old.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO match (id, room_id, number, status, rules, version, position) VALUES (gen_random_uuid(), $1::uuid, 1, 'playing', '{}', 2, '{}') RETURNING id`,
      room!.id,
    );
    const envelope = (version: number, event: unknown) => ({ matchId: match!.id, version, at: '2026-12-02T05:00:01.000Z', event });
    const rematch = envelope(1, { type: 'rematch-offered', seat: 1 });
    for (const payload of [rematch, envelope(2, fullMoved)]) {
      await old.prisma.$executeRawUnsafe(`INSERT INTO match_event (match_id, version, payload) VALUES ($1::uuid, $2, $3::jsonb)`, match!.id, payload.version, JSON.stringify(payload));
    }
    await old.close();

    const db = await openDatabase(target, { migrationsDir: paths.migrations });
    try {
      const rows = await db.prisma.matchEvent.findMany({ where: { matchId: match!.id }, orderBy: { version: 'asc' } });
      expect(rows.map((row) => row.payload)).toEqual([rematch, envelope(2, { type: 'moved', square: 2, dir: 1, clocks: fullMoved.clocks })]);
      for (const row of rows) expect(matchEventEnvelope.safeParse(row.payload).success).toBe(true);
    } finally {
      await db.close();
    }
  });
});
