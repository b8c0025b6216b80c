import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
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
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
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

/** A fresh, empty database of the given engine; `drop` removes it. */
export async function scratchTarget(engine: EngineName): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (engine === 'pglite') return { target: { kind: 'pglite' }, drop: async () => {} };
  const name = `oanquan_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgresql', url: url.toString() },
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * The environment of a server process whose database outlives it (a PGlite
 * directory, or a scratch PostgreSQL database), so a test can kill the
 * process and start another on the same data; `drop` removes it.
 */
export async function lastingServerEnv(engine: EngineName): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-data-'));
    return { env: { PGLITE_DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const scratch = await scratchTarget('postgresql');
  if (scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
  return { env: { DATABASE_URL: scratch.target.url }, drop: scratch.drop };
}

/** A fresh database with every migration applied. */
export async function migratedDatabase(engine: EngineName): Promise<Database> {
  const scratch = await scratchTarget(engine);
  const db = await openDatabase(scratch.target, { migrationsDir: paths.migrations });
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
