import type { MatchEventEnvelope } from '@oanquan/protocol';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../db/database.js';
import type { HotSql } from '../db/hot-sql.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { MatchService, type MatchServiceOptions } from '../matches/match-service.js';
import { PlayerService } from '../players/player-service.js';
import { RoomService } from '../rooms/room-service.js';
import { migratedDatabase, type EngineName } from './databases.js';

export interface LoggedProcessOptions extends MatchServiceOptions {
  publish?: (code: string, envelopes: MatchEventEnvelope[]) => Promise<void> | void;
  openerTimeoutMs?: number;
  now?: () => Date;
}

/**
 * `db` with every statement sent through it written down: `prisma
 * model.operation` for the client, `sql name` for the hot path's prepared
 * statements.
 */
export function loggedDatabase(db: Database): { db: Database; log: string[] } {
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
  return { db: { ...db, prisma, sql }, log };
}

/** A match service over `db` as one more server process would run it, with every statement it sends written down (see loggedDatabase). */
export function loggedProcess(db: Database, options: LoggedProcessOptions = {}) {
  const logged = loggedDatabase(db);
  const { publish = () => {}, openerTimeoutMs = 30_000, now, ...service } = options;
  const matches = new MatchService(logged.db, publish, openerTimeoutMs, 30_000, now, service);
  return { matches, log: logged.log, since: (mark: number) => logged.log.slice(mark) };
}

/** The code a change was refused with, or 'ok'. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );

/**
 * A migrated database of `engine` with the player and room services, opened
 * before the tests of the enclosing block and closed after them.
 */
export function servicesOn(engine: EngineName): { readonly db: Database; readonly players: PlayerService; readonly rooms: RoomService } {
  let opened: { db: Database; players: PlayerService; rooms: RoomService } | undefined;
  beforeAll(async () => {
    const db = await migratedDatabase(engine);
    opened = { db, players: new PlayerService(db), rooms: new RoomService(db) };
  });
  afterAll(async () => {
    await opened?.db.close();
  });
  const get = () => {
    if (!opened) throw new Error('the database opens before the tests, not while they are declared');
    return opened;
  };
  return {
    get db() {
      return get().db;
    },
    get players() {
      return get().players;
    },
    get rooms() {
      return get().rooms;
    },
  };
}
