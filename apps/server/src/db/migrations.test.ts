import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { engines, scratchTarget, type EngineName } from '../testing/databases.js';
import { applyMigrations, checksumOf, MigrationError, readMigrations } from './migrations.js';
import { pgSqlClient, type SqlClient } from './sql-client.js';

async function connect(engine: EngineName): Promise<{ client: SqlClient; close(): Promise<void> }> {
  const scratch = await scratchTarget(engine);
  if (scratch.target.kind === 'pglite') {
    const db = new PGlite();
    return { client: db, close: () => db.close() };
  }
  const client = new pg.Client({ connectionString: scratch.target.url });
  await client.connect();
  return {
    client: pgSqlClient(client),
    close: async () => {
      await client.end();
      await scratch.drop();
    },
  };
}

describe.each(engines)('migrations on %s', (engine) => {
  let db: Awaited<ReturnType<typeof connect>>;
  let tmp: string;
  beforeEach(async () => {
    db = await connect(engine);
    tmp = await mkdtemp(path.join(tmpdir(), 'oanquan-migrations-'));
  });
  afterEach(async () => {
    await db.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('applies the project migrations once; the second run is a no-op', async () => {
    const all = (await readMigrations(paths.migrations)).map((m) => m.name);
    expect(all.length).toBeGreaterThan(0);

    const first = await applyMigrations(db.client, paths.migrations);
    expect(first).toEqual({ applied: all, alreadyApplied: [] });
    const second = await applyMigrations(db.client, paths.migrations);
    expect(second).toEqual({ applied: [], alreadyApplied: all });

    const { rows } = await db.client.query<{ migration_name: string; checksum: string; finished: boolean; applied_steps_count: number; logs: string | null }>(
      'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    const expected = await readMigrations(paths.migrations);
    expect(rows).toEqual(
      expected.map((m) => ({ migration_name: m.name, checksum: checksumOf(m.script), finished: true, applied_steps_count: 1, logs: null })),
    );
    const tables = await db.client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'player'",
    );
    expect(tables.rows).toHaveLength(1);
  });

  it('reports a failing migration as failed, rolls it back and refuses to go on', async () => {
    await mkdir(path.join(tmp, '20260101000000_good'));
    await writeFile(path.join(tmp, '20260101000000_good/migration.sql'), 'CREATE TABLE good (id INT);\n');
    await mkdir(path.join(tmp, '20260102000000_bad'));
    await writeFile(
      path.join(tmp, '20260102000000_bad/migration.sql'),
      'CREATE TABLE half_done (id INT);\nINSERT INTO no_such_table VALUES (1);\n',
    );

    const failure = await applyMigrations(db.client, tmp).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as MigrationError).migration).toBe('20260102000000_bad');
    expect((failure as Error).message).toMatch(/no_such_table/);

    const { rows } = await db.client.query<{ migration_name: string; finished: boolean; logs: string | null }>(
      'SELECT migration_name, finished_at IS NOT NULL AS finished, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.finished])).toEqual([
      ['20260101000000_good', true],
      ['20260102000000_bad', false],
    ]);
    expect(rows[1]?.logs).toMatch(/no_such_table/);
    const halfDone = await db.client.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'");
    expect(halfDone.rows).toHaveLength(0);

    await expect(applyMigrations(db.client, tmp)).rejects.toThrow(/20260102000000_bad failed earlier/);
  });
});
