import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { BackupError, partialPath } from './backup-error.js';

/**
 * PostgreSQL's own tools, from POSTGRES_BIN, else the newest Debian
 * installation (/usr/lib/postgresql/<version>/bin), else the PATH. pg_dump
 * must be at least the server's major version; it says so when it is not.
 */
export function postgresTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  if (env.POSTGRES_BIN) return path.join(env.POSTGRES_BIN, name);
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', name))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  return newest ? path.join(root, newest, 'bin', name) : name;
}

function runTool(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new BackupError(error.code === 'ENOENT' ? `${tool} not found: install PostgreSQL's client tools, or set POSTGRES_BIN to their directory` : `${tool}: ${error.message}`)),
    );
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new BackupError(`${path.basename(tool)} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`)),
    );
  });
}

/** An online backup in pg_dump's custom format: one consistent snapshot, taken while the servers play on. */
export async function backupPostgres(url: string, out: string): Promise<void> {
  const partial = partialPath(out);
  try {
    await runTool(postgresTool('pg_dump'), ['--format=custom', '--file', partial, '--dbname', url]);
    await rename(partial, out);
  } finally {
    await rm(partial, { force: true });
  }
}

async function connected<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The target database, created when it does not exist yet (a new site's first restore). */
async function prepareTarget(url: string, force: boolean): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const state = await connected(url, async (client) => {
    const others = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    const relations = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
       WHERE s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg\\_toast%' AND s.nspname NOT LIKE 'pg\\_temp%'`,
    );
    return { others: others.rows[0]!.n, relations: relations.rows[0]!.n };
  }).catch(async (error: { code?: string; message?: string }) => {
    if (error.code !== '3D000') throw new BackupError(`cannot connect to the target database: ${error.message}`);
    const admin = new URL(url);
    admin.pathname = '/postgres';
    await connected(admin.toString(), (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)).catch((cause: Error) => {
      throw new BackupError(`database ${name} does not exist and could not be created: ${cause.message}`);
    });
    return { others: 0, relations: 0 };
  });
  // A server writing while its tables are replaced would mix two histories.
  if (state.others > 0) throw new BackupError(`${state.others} other session(s) are connected to database ${name}: stop the servers before restoring`);
  if (state.relations === 0) return;
  if (!force) {
    throw new BackupError(`database ${name} is not empty (${state.relations} tables, sequences or indexes): restore into an empty database, or pass --force to replace it`);
  }
  await connected(url, (client) => client.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public'));
}

/**
 * Restores a pg_dump file in one transaction (a failure leaves nothing half
 * restored), owned by the connecting role: the roles of the backed-up site
 * need not exist here.
 */
export async function restorePostgres(file: string, url: string, force: boolean): Promise<void> {
  await prepareTarget(url, force);
  await runTool(postgresTool('pg_restore'), ['--single-transaction', '--exit-on-error', '--no-owner', '--no-acl', '--dbname', url, file]);
}

/** What the restored database holds, for the operator's eye. */
export function postgresCounts(url: string): Promise<{ matches: number; moves: number }> {
  return connected(url, async (client) => {
    const { rows } = await client.query<{ matches: number; moves: number }>('SELECT (SELECT count(*) FROM match)::int AS matches, (SELECT count(*) FROM move)::int AS moves');
    return rows[0]!;
  });
}
