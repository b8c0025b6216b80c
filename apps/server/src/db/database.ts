import { mkdir } from 'node:fs/promises';
import type pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { holdDataDir } from './data-dir-holder.js';
import { pgHotSql, pgliteHotSql, type HotSql } from './hot-sql.js';
import { applyMigrations, type MigrationReport } from './migrations.js';
import { pgSqlClient } from './sql-client.js';

export type DatabaseKind = 'pglite' | 'postgresql';

/** A Prisma transaction: what a change done in several statements is handed (matches, ratings, cleanup). */
export type Tx = Prisma.TransactionClient;

export interface Database {
  kind: DatabaseKind;
  prisma: PrismaClient;
  /** The hot path's statements (a move), one round trip each; Prisma serves the rest. */
  sql: HotSql;
  /** The connection pools' figures, for the metrics; PGlite has no pool. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgresql'; url: string }
  /** `dataDir` undefined keeps the database in memory (tests); `loadDataDir`, a dump of another, is what a new one starts from. */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export interface OpenOptions {
  /** Apply pending migrations before handing out the client. */
  migrationsDir?: string;
  log?: (message: string) => void;
}

/**
 * Connections of the hot path's pool: a move is one short statement, so a few
 * connections keep the database busy, and more would only queue inside it.
 */
const HOT_POOL_SIZE = 12;

export function targetFromConfig(config: { DATABASE_URL?: string | undefined; PGLITE_DATA_DIR: string }): DatabaseTarget {
  return config.DATABASE_URL
    ? { kind: 'postgresql', url: config.DATABASE_URL }
    : { kind: 'pglite', dataDir: config.PGLITE_DATA_DIR };
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database & { migrations?: MigrationReport }> {
  return target.kind === 'pglite' ? openPglite(target.dataDir, options, target.loadDataDir) : openPostgres(target.url, options);
}

// Each database's driver is loaded only when it is the one opened: a process
// never needs both, and loading one costs start-up time and memory for life.
async function openPglite(dataDir: string | undefined, options: OpenOptions, loadDataDir?: Blob) {
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // Written down for `pnpm db:backup` and `db:restore`, which must not copy or replace the directory under a running server.
  const release = dataDir ? holdDataDir(dataDir) : () => {};
  const pglite = new PGlite({ dataDir, loadDataDir });
  await pglite.waitReady;
  const migrations = options.migrationsDir ? await applyMigrations(pglite, options.migrationsDir, options.log) : undefined;
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: 'pglite' as const,
    prisma,
    sql: pgliteHotSql(pglite),
    migrations,
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      release();
    },
  };
}

async function openPostgres(url: string, options: OpenOptions) {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import('pg'), import('@prisma/adapter-pg')]);
  let migrations: MigrationReport | undefined;
  if (options.migrationsDir) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      migrations = await applyMigrations(pgSqlClient(client), options.migrationsDir, options.log);
    } finally {
      await client.end();
    }
  }
  // Pools of our own, Prisma's for the cold paths and one for the hot path, so their figures can be read.
  const pool = newPool(pg, url);
  const hotPool = newPool(pg, url, HOT_POOL_SIZE);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const sql = pgHotSql(hotPool);
  return {
    kind: 'postgresql' as const,
    prisma,
    sql,
    migrations,
    poolStats: () => ({
      total: pool.totalCount + hotPool.totalCount,
      idle: pool.idleCount + hotPool.idleCount,
      waiting: pool.waitingCount + hotPool.waitingCount,
    }),
    async close() {
      await prisma.$disconnect();
      await sql.close();
      await pool.end();
    },
  };
}

function newPool(driver: typeof pg, url: string, max?: number): pg.Pool {
  // A server that cannot be reached (a network partition rather than a refusal) fails a request within this, as UNAVAILABLE, instead of never.
  const pool = new driver.Pool({ connectionString: url, connectionTimeoutMillis: 10_000, ...(max ? { max } : {}) });
  // An idle connection cut by a server restart is dropped by the pool; the next query opens a fresh one.
  pool.on('error', () => {});
  return pool;
}
