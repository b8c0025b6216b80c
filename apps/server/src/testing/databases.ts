import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { paths } from '../config.js';
import { openDatabase, type Database, type DatabaseTarget } from '../db/database.js';

/**
 * Test databases. Every integration test runs against both engines: PGlite in
 * memory, and a throw-away database on a real PostgreSQL server
 * (TEST_DATABASE_URL, by default the local server).
 */
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function postgresAnswersOnce(): Promise<'yes' | 'no' | 'busy'> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return 'yes';
  } catch (error) {
    // A server there but busy, as on a machine loaded to 20 or 30, is asked again, not skipped: a
    // connection that took over 3 s, out of connections (53300), starting up (57P03).
    const { code, message } = error as { code?: string; message?: string };
    return code === '53300' || code === '57P03' || /timeout/i.test(message ?? '') ? 'busy' : 'no';
  } finally {
    await client.end().catch(() => {});
  }
}

async function postgresAnswers(): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await postgresAnswersOnce();
    if (answer !== 'busy' || Date.now() > deadline) return answer === 'yes';
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * In CI, or whenever TEST_DATABASE_URL is set, a PostgreSQL server that does
 * not answer fails the run; on a developer's machine without one the
 * PostgreSQL half is skipped with a warning.
 */
export const postgresAvailable = await (async () => {
  if (await postgresAnswers()) return true;
  if (process.env.CI || process.env.TEST_DATABASE_URL) {
    throw new Error(`PostgreSQL does not answer at ${adminUrl}; the integration tests need it (set TEST_DATABASE_URL).`);
  }
  console.warn(`PostgreSQL does not answer at ${adminUrl}: skipping the PostgreSQL half of the integration tests`);
  return false;
})();

export type EngineName = 'pglite' | 'postgresql';
export const engines: EngineName[] = postgresAvailable ? ['pglite', 'postgresql'] : ['pglite'];

/** A fresh, empty database of the given engine, or a copy of `template` (a PostgreSQL database's name); `drop` removes it. */
export async function scratchTarget(engine: EngineName, template?: string): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (engine === 'pglite') return { target: { kind: 'pglite' }, drop: async () => {} };
  const name = `oanquan_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgresql', url: url.toString() },
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * Where the suite's global set-up (template-databases.ts) left a database of
 * each engine with every migration applied; unset outside the test runner
 * (the benchmarks), where each database is migrated from empty.
 */
const pgliteTemplate = process.env.OANQUAN_TEST_PGLITE_TEMPLATE;
export const postgresTemplate = process.env.OANQUAN_TEST_POSTGRES_TEMPLATE;
let pgliteDump: Promise<Blob> | undefined;
const templateDump = () => (pgliteDump ??= readFile(pgliteTemplate!).then((bytes) => new Blob([bytes])));

/**
 * The environment of a server process whose database outlives it (a PGlite
 * directory, or a scratch PostgreSQL database), so a test can kill the
 * process and start another on the same data; `drop` removes it. Both start
 * as copies of the migrated template when there is one, so the process's
 * migrator finds nothing to do.
 */
export async function lastingServerEnv(engine: EngineName): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-data-'));
    if (pgliteTemplate) {
      const { PGlite } = await import('@electric-sql/pglite');
      const seeded = new PGlite({ dataDir: dir, loadDataDir: await templateDump() });
      await seeded.waitReady;
      await seeded.close();
    }
    return { env: { PGLITE_DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const scratch = await scratchTarget('postgresql', postgresTemplate);
  if (scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
  return { env: { DATABASE_URL: scratch.target.url }, drop: scratch.drop };
}

/**
 * A fresh database with every migration applied: a copy of the migrated
 * template when there is one (the migrator then finds nothing to do).
 */
export async function migratedDatabase(engine: EngineName): Promise<Database> {
  const scratch = await scratchTarget(engine, postgresTemplate);
  if (scratch.target.kind === 'pglite' && pgliteTemplate) {
    scratch.target.loadDataDir = await templateDump();
  }
  const db = await openDatabase(scratch.target, { migrationsDir: paths.migrations });
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A connection of its own to the PostgreSQL database `db` uses, beside the app's pool (to hold a lock while the app runs). */
export async function secondConnection(db: Database): Promise<pg.Client> {
  const [row] = await db.prisma.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
  const address = new URL(adminUrl);
  address.pathname = `/${row!.name}`;
  const client = new pg.Client({ connectionString: address.toString() });
  await client.connect();
  return client;
}
