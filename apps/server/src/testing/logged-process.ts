import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import type { HotSql } from '../db/hot-sql.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { MatchService, type MatchServiceOptions } from '../matches/match-service.js';

export interface LoggedProcessOptions extends MatchServiceOptions {
  publish?: (code: string, envelopes: MatchEventEnvelope[]) => Promise<void> | void;
  openerTimeoutMs?: number;
  now?: () => Date;
}

/**
 * A match service over `db` as one more server process would run it, with
 * every statement it sends written down: `prisma model.operation` for the
 * client, `sql name` for the hot path's prepared statements.
 */
export function loggedProcess(db: Database, options: LoggedProcessOptions = {}) {
  const log: string[] = [];
  const prisma = db.prisma.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        log.push(`prisma ${model ?? ''}.${operation}`);
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
  const sql: HotSql = {
    query: (statement, values) => {
      log.push(`sql ${statement.name}`);
      return db.sql.query(statement, values);
    },
    close: async () => {},
  };
  const { publish = () => {}, openerTimeoutMs = 30_000, now, ...service } = options;
  const matches = new MatchService({ ...db, prisma, sql }, publish, openerTimeoutMs, 30_000, now, service);
  return { matches, log, since: (mark: number) => log.slice(mark) };
}

/** The code a change was refused with, or 'ok'. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );
