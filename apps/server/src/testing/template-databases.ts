import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { paths } from '../config.js';
import { applyMigrations } from '../db/migrations.js';
import { pgSqlClient } from '../db/sql-client.js';
import { adminUrl, postgresAvailable, withAdmin } from './databases.js';

/**
 * The suite's global set-up: one database of each engine migrated once, that
 * every test's fresh database is copied from (`migratedDatabase`). Migrating
 * PGlite costs seconds of processor per database (its initdb, then every
 * migration in WebAssembly), loading a dump of a migrated one about a second;
 * on PostgreSQL a copy of a template skips the migrations' statements. The
 * workers find the copies' sources in the environment; the end removes them.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-template-'));
  const dumpPath = path.join(dir, 'pglite.tar');
  const pglite = new PGlite();
  try {
    await applyMigrations(pglite, paths.migrations);
    const dump = await pglite.dumpDataDir('none');
    await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  process.env.OANQUAN_TEST_PGLITE_TEMPLATE = dumpPath;

  let template: string | undefined;
  if (postgresAvailable) {
    template = `oanquan_template_${randomBytes(6).toString('hex')}`;
    await withAdmin((client) => client.query(`CREATE DATABASE ${template}`));
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await applyMigrations(pgSqlClient(client), paths.migrations);
    } finally {
      await client.end();
    }
    process.env.OANQUAN_TEST_POSTGRES_TEMPLATE = template;
  }

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (template) await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  };
}
