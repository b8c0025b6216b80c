import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * The hot path's way to the database, beside Prisma: one round trip per call,
 * with no query compiler or result mapping in between. On PostgreSQL a
 * statement with a name is prepared once per pooled connection and then only
 * executed; PGlite runs in this process, so the same SQL simply goes to it.
 */
export interface HotSql {
  query<Row>(statement: { name: string; text: string }, values: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** Takes over the pool: closing the hot path ends it. */
export function pgHotSql(pool: pg.Pool): HotSql {
  return {
    // With a callback: the pool's own promise, and an async function's, would be two more per statement.
    query<Row>(statement: { name: string; text: string }, values: unknown[]) {
      return new Promise<Row[]>((resolve, reject) => {
        pool.query<pg.QueryResultRow>({ name: statement.name, text: statement.text, values }, (error, result) => (error ? reject(error) : resolve(result.rows as Row[])));
      });
    },
    close: () => pool.end(),
  };
}

export function pgliteHotSql(pglite: PGlite): HotSql {
  return {
    async query<Row>(statement: { name: string; text: string }, values: unknown[]) {
      return (await pglite.query<Row>(statement.text, values)).rows;
    },
    close: async () => {},
  };
}

/**
 * The same statements, each counted by its name as it is sent: how many round
 * trips a move costs on each process shows in the metrics (a game cache that
 * falls behind costs a read per move, which latency alone does not tell).
 */
export function countedHotSql(sql: HotSql, count: (statement: string) => void): HotSql {
  return {
    query<Row>(statement: { name: string; text: string }, values: unknown[]) {
      count(statement.name);
      return sql.query<Row>(statement, values);
    },
    close: () => sql.close(),
  };
}
