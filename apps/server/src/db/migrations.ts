import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlClient } from './sql-client.js';

/**
 * Applies pending migrations from Prisma's folder layout and keeps
 * `_prisma_migrations` exactly as `prisma migrate deploy` writes it (same
 * table, same checksum, same row life cycle), so the official CLI can take
 * over the same database wherever its native engine can be downloaded.
 */

// The advisory lock key Prisma's schema engine takes on PostgreSQL, so our
// migrator and the official one never run at the same time.
const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  script: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

export function checksumOf(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('hex');
}

export async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const script = await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: checksumOf(script) };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * A migration that fails is rolled back (each runs in its own transaction)
 * and its row is left unfinished with the error in `logs`, as Prisma does;
 * later runs refuse to go on until someone resolves it, as Prisma's P3009.
 */
export async function applyMigrations(
  client: SqlClient,
  migrationsDir: string,
  log: (message: string) => void = () => {},
): Promise<MigrationReport> {
  const migrations = await readMigrations(migrationsDir);
  await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
  try {
    await client.exec(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${failed.migration_name} failed earlier and is not resolved; fix the database, then mark it rolled back or applied (prisma migrate resolve).`,
        failed.migration_name,
      );
    }
    const done = new Map(rows.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row]));
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          log(`migration ${migration.name} was edited after it was applied (checksum differs)`);
        }
        report.alreadyApplied.push(migration.name);
        continue;
      }
      await applyOne(client, migration);
      log(`applied migration ${migration.name}`);
      report.applied.push(migration.name);
    }
    return report;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]);
  }
}

async function applyOne(client: SqlClient, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query(
    'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
    [id, migration.checksum, migration.name],
  );
  try {
    await client.exec(`BEGIN;\n${migration.script}\n;COMMIT;`);
  } catch (error) {
    await client.exec('ROLLBACK').catch(() => {});
    const message = error instanceof Error ? error.message : String(error);
    await client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, message]);
    throw new MigrationError(`Migration ${migration.name} failed: ${message}`, migration.name);
  }
  await client.query(
    'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = applied_steps_count + 1 WHERE id = $1',
    [id],
  );
}
