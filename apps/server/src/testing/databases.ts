import { randomBytes } from 'node:crypto';
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
