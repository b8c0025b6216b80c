import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { newGame, PRESETS } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { openDatabase, targetFromConfig, type Database } from '../db/database.js';
import { asJson } from '../rooms/room-service.js';
import { engines, lastingServerEnv } from '../testing/databases.js';
import { firstMoverByBand } from './first-mover-stats.js';

const run = promisify(execFile);

/** The first mover's score in real rated games by rating band, read by the query and by `pnpm stats:first-mover`. */
describe.each(engines)('first mover by rating band on %s', (engine) => {
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let db: Database;

  beforeAll(async () => {
    ({ env, drop } = await lastingServerEnv(engine));
    db = await openDatabase(targetFromConfig({ DATABASE_URL: env.DATABASE_URL, PGLITE_DATA_DIR: env.PGLITE_DATA_DIR ?? '' }), { migrationsDir: paths.migrations });
    const [a, b] = await Promise.all([db.prisma.player.create({ data: { name: 'A' } }), db.prisma.player.create({ data: { name: 'B' } })]);
    const room = await db.prisma.room.create({ data: { code: `band${engine}`, rules: asJson(PRESETS.classic), rated: true } });
    const position = asJson(newGame().position);
    let number = 0;
    /** A finished match between players rated `before` (each seat), won by `winner` (a seat, null a draw), `first` having moved first. */
    const game = (before: [number, number], first: 0 | 1, winner: 0 | 1 | null, rated = true) =>
      db.prisma.match.create({
        data: {
          roomId: room.id,
          number: ++number,
          status: 'ended',
          rules: asJson(PRESETS.classic),
          position,
          player0Id: a.id,
          player1Id: b.id,
          first,
          winner,
          rated: true,
          ratedAt: rated ? new Date() : null,
          ratingChanges: rated ? before.map((r) => ({ before: r, after: r })) : undefined,
        },
      });
    // Band 1400–1600 (means 1500, 1450, 1590): the first mover wins twice, draws once, loses once.
    await game([1500, 1500], 0, 0);
    await game([1400, 1500], 1, 1);
    await game([1580, 1600], 0, null);
    await game([1500, 1500], 1, 0);
    // Band 1800–2000: the first mover wins both.
    await game([1900, 1850], 0, 0);
    await game([1850, 1900], 1, 1);
    // Not rated (the pair's games used up, an abort): left out.
    await game([1500, 1500], 0, 1, false);
  });
  let closed = false;
  const closeDb = async () => {
    if (!closed) await db?.close();
    closed = true;
  };
  afterAll(async () => {
    await closeDb();
    await drop?.();
  });

  it('counts only rated games, banded by the mean rating before the game, with a 95 % interval', async () => {
    const bands = await firstMoverByBand(db);
    expect(bands.map(({ from, games, wins, draws, losses, score }) => ({ from, games, wins, draws, losses, score }))).toEqual([
      { from: 1400, games: 4, wins: 2, draws: 1, losses: 1, score: 0.625 },
      { from: 1800, games: 2, wins: 2, draws: 0, losses: 0, score: 1 },
    ]);
    const [low, high] = bands[1]!.interval;
    expect(high).toBe(1);
    expect(low).toBeGreaterThan(0.3);
    expect(low).toBeLessThan(0.4);
  });

  it('prints the table from the configured database as a script, reading nothing else', async () => {
    // The embedded database is one process's: the script opens it only once this one has let go.
    if (engine === 'pglite') await closeDb();
    const { stdout } = await run('pnpm', ['--silent', 'stats:first-mover'], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, cwd: path.join(paths.repoRoot, 'apps/server') });
    expect(stdout).toContain("first mover's score in rated games");
    expect(stdout).toMatch(/1400–1600\s+4\s+2-1-1\s+63 %/);
    expect(stdout).toMatch(/1800–2000\s+2\s+2-0-0\s+100 %/);
  });
});
