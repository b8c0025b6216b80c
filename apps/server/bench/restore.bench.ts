/**
 * The restore drill, timed: `BENCH_RESTORE_GAMES` ended games (10,000 by
 * default) of `BENCH_RESTORE_PLIES` moves each, written as rows, then
 * `db:backup` and `db:restore` into a fresh database, as an operator runs
 * them (the CLI's own process). Prints each step's seconds and the backup's
 * size, on each engine (PostgreSQL: a scratch database on TEST_DATABASE_URL's
 * server; PGlite: a directory). The floor, measured in the same run: the same
 * drill on the empty migrated database, which is the commands' fixed cost
 * (node, the tool, the connection); the ratio is what the games add.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paths } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { runBackupCli } from '../src/testing/backup-cli.js';
import { engines, scratchTarget } from '../src/testing/databases.js';
import { seedPlayedGames } from '../src/testing/played-games.js';

const GAMES = Number(process.env.BENCH_RESTORE_GAMES ?? 10_000);
const PLIES = Number(process.env.BENCH_RESTORE_PLIES ?? 60);

type Env = { DATABASE_URL?: string; PGLITE_DATA_DIR?: string };

async function freshDatabase(engine: 'pglite' | 'postgresql', dir: string, name: string): Promise<{ env: Env; drop(): Promise<void> }> {
  if (engine === 'pglite') return { env: { PGLITE_DATA_DIR: path.join(dir, name) }, drop: async () => {} };
  const scratch = await scratchTarget('postgresql');
  if (scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
  return { env: { DATABASE_URL: scratch.target.url }, drop: scratch.drop };
}

async function timed(env: Env, ...args: string[]): Promise<number> {
  const started = performance.now();
  const run = await runBackupCli(env, ...args);
  if (run.code !== 0) throw new Error(`${args.join(' ')} failed: ${run.output}`);
  return (performance.now() - started) / 1000;
}

/** Backs up the database `env` names and restores it into a fresh one: seconds of each, and the file's bytes. */
async function drill(engine: 'pglite' | 'postgresql', dir: string, label: string, env: Env) {
  const file = path.join(dir, `${label}.${engine === 'postgresql' ? 'pgdump' : 'tar.gz'}`);
  const backup = await timed(env, 'backup', '--out', file);
  const target = await freshDatabase(engine, dir, `${label}-restored`);
  try {
    const restore = await timed(target.env, 'restore', file);
    return { backup, restore, bytes: (await stat(file)).size };
  } finally {
    await target.drop();
  }
}

for (const engine of engines) {
  const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-restore-bench-'));
  const drops: Array<() => Promise<void>> = [];
  try {
    const figures: Record<string, Awaited<ReturnType<typeof drill>>> = {};
    for (const [label, games] of [['empty', 0], ['games', GAMES]] as const) {
      const source = await freshDatabase(engine, dir, label);
      drops.push(source.drop);
      const db = await openDatabase(source.env.DATABASE_URL ? { kind: 'postgresql', url: source.env.DATABASE_URL } : { kind: 'pglite', dataDir: source.env.PGLITE_DATA_DIR }, { migrationsDir: paths.migrations });
      const seeding = performance.now();
      if (games > 0) await seedPlayedGames(db, games, PLIES);
      await db.close();
      if (games > 0) console.log(`${engine}: ${games} games of ${PLIES} plies seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
      figures[label] = await drill(engine, dir, label, source.env);
    }
    const { empty, games } = figures as Required<typeof figures>;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    console.log(`${engine} floor (empty database): backup ${empty!.backup.toFixed(1)} s, restore ${empty!.restore.toFixed(1)} s, ${mb(empty!.bytes)}`);
    console.log(
      `${engine} ${GAMES} games: backup ${games!.backup.toFixed(1)} s (${(games!.backup / empty!.backup).toFixed(1)}× floor), ` +
        `restore ${games!.restore.toFixed(1)} s (${(games!.restore / empty!.restore).toFixed(1)}× floor), ${mb(games!.bytes)}`,
    );
  } finally {
    for (const drop of drops) await drop();
    await rm(dir, { recursive: true, force: true });
  }
}
