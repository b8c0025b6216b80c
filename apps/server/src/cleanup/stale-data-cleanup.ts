import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../db/database.js';
import { Prisma } from '../generated/prisma/client.js';

/** The advisory lock of the cleanup (one bigint key, apart from Prisma's migration lock 72707369). */
export const CLEANUP_LOCK = 7_300_502;

export interface CleanupSettings {
  /** Guests who never played are kept this long. */
  guestRetentionMs: number;
  /** Rooms whose matches nobody played (never started, aborted before the first move, or the person never moved against the computer) are kept this long. */
  idleRoomMs: number;
  /** Sessions that expired or were signed out are kept this long as a record, then deleted. */
  endedSessionMs: number;
  /** Rows per transaction. */
  batchSize: number;
}

export type CleanupOutcome = { ran: false } | { ran: true; rooms: number; guests: number; sessions: number };

/**
 * Strangers can make guests, rooms and games against the computer for free,
 * so what nobody used goes away: rooms whose every match nobody played
 * (never started, aborted before its first move, or against the computer
 * with no move of the person's) once they and those
 * matches are `idleRoomMs` old, with the matches, events and opener rounds;
 * a room with a match that was played keeps everything. Then guests older than
 * `guestRetentionMs` who never played: no seat in any match, no room left
 * (idle ones went first), not in the queue, and never kept as an account;
 * then sessions ended (expired or signed out) more than `endedSessionMs`
 * ago. Everything else, a finished match above all, stays.
 *
 * Several server processes share the database; one cleans at a time. Each
 * batch is its own short transaction and first takes a transaction-level
 * advisory lock without waiting: a process that does not get it stops this
 * run and leaves the work to the one that did.
 */
export class StaleDataCleanup {
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly settings: CleanupSettings,
  ) {}

  /** Between batches: a shutdown does not wait for a long backlog. */
  stop(): void {
    this.stopped = true;
  }

  async run(now = new Date()): Promise<CleanupOutcome> {
    const roomCutoff = new Date(now.getTime() - this.settings.idleRoomMs);
    const rooms = await this.repeat((tx) => this.idleRooms(tx, roomCutoff));
    if (rooms === null) return { ran: false };
    const guestCutoff = new Date(now.getTime() - this.settings.guestRetentionMs);
    const guests = await this.repeat((tx) => this.unusedGuests(tx, guestCutoff));
    if (guests === null) return { ran: false };
    const sessionCutoff = new Date(now.getTime() - this.settings.endedSessionMs);
    const sessions = await this.repeat((tx) => this.endedSessions(tx, sessionCutoff));
    if (sessions === null) return { ran: false };
    return { ran: true, rooms, guests, sessions };
  }

  /** For the periodic task: never throws. */
  async runLogged(): Promise<void> {
    try {
      const outcome = await this.run();
      if (outcome.ran && outcome.rooms + outcome.guests + outcome.sessions > 0) this.log.info(outcome, 'stale data cleaned up');
    } catch (error) {
      this.log.error({ err: error }, 'cleanup failed');
    }
  }

  /** Batch after batch until one comes back short; null when another process holds the lock. */
  private async repeat(batch: (tx: Tx) => Promise<number>): Promise<number | null> {
    let total = 0;
    while (!this.stopped) {
      const deleted = await this.db.prisma.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${CLEANUP_LOCK}::int8) AS locked`;
        return row?.locked ? batch(tx) : null;
      });
      if (deleted === null) return null;
      total += deleted;
      if (deleted < this.settings.batchSize) break;
    }
    return total;
  }

  /**
   * Rows are taken without waiting (SKIP LOCKED): a room or match that a
   * change holds is in use and left for a later run, and a cleanup that never
   * waits never closes a circle of waits with a change (a rematch holds its
   * match, then needs the room for the next one). What the rooms were chosen
   * by is checked again as they are deleted, once nothing can change it.
   */
  private async idleRooms(tx: Tx, cutoff: Date): Promise<number> {
    const chosen = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT r.id FROM room r
      WHERE r.created_at < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM match m WHERE m.room_id = r.id AND NOT ${unplayedBefore(cutoff)})
      ORDER BY r.created_at
      LIMIT ${this.settings.batchSize}
      FOR UPDATE OF r SKIP LOCKED`;
    if (chosen.length === 0) return 0;
    const rooms = chosen.map((room) => room.id);
    const taken = await tx.$queryRaw<Array<{ roomId: string }>>`
      SELECT m.room_id AS "roomId" FROM match m WHERE m.room_id = ANY(${rooms}::uuid[]) FOR UPDATE SKIP LOCKED`;
    const all = await tx.$queryRaw<Array<{ roomId: string }>>`SELECT m.room_id AS "roomId" FROM match m WHERE m.room_id = ANY(${rooms}::uuid[])`;
    const count = (rows: Array<{ roomId: string }>, room: string) => rows.filter((row) => row.roomId === room).length;
    const held = rooms.filter((room) => count(taken, room) === count(all, room));
    if (held.length === 0) return 0;
    // A match that started after the rooms were chosen keeps its room and everything in it.
    await tx.$executeRaw`
      DELETE FROM match x WHERE x.room_id IN (
        SELECT r.id FROM room r
        WHERE r.id = ANY(${held}::uuid[]) AND NOT EXISTS (SELECT 1 FROM match m WHERE m.room_id = r.id AND NOT ${unplayedBefore(cutoff)}))`;
    return tx.$executeRaw`DELETE FROM room r WHERE r.id = ANY(${held}::uuid[]) AND NOT EXISTS (SELECT 1 FROM match m WHERE m.room_id = r.id)`;
  }

  /**
   * A join takes its player's row before the seat (holdPlayer), so a guest
   * sitting down right now is skipped here and kept, and one taken here is
   * refused the seat once this commits, never half-seated.
   */
  private async unusedGuests(tx: Tx, cutoff: Date): Promise<number> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT p.id FROM player p
      WHERE p.created_at < ${cutoff}
        AND p.password_hash IS NULL
        AND p.bot_level IS NULL
        AND NOT EXISTS (SELECT 1 FROM match m WHERE m.player0_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM match m WHERE m.player1_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM room r WHERE r.created_by_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM queue_entry q WHERE q.player_id = p.id)
      ORDER BY p.created_at
      LIMIT ${this.settings.batchSize}
      FOR UPDATE OF p SKIP LOCKED`;
    if (rows.length === 0) return 0;
    // Checked again now that the rows are held: what committed in between (a seat, a room, the queue) keeps its guest.
    const { count } = await tx.player.deleteMany({
      where: { id: { in: rows.map((row) => row.id) }, passwordHash: null, botLevel: null, seat0: { none: {} }, seat1: { none: {} }, rooms: { none: {} }, queued: { is: null } },
    });
    return count;
  }

  private async endedSessions(tx: Tx, cutoff: Date): Promise<number> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM session
      WHERE expires_at < ${cutoff} OR revoked_at < ${cutoff}
      LIMIT ${this.settings.batchSize}`;
    if (rows.length === 0) return 0;
    await tx.session.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
    return rows.length;
  }
}

/**
 * A match nobody played, and not for `cutoff` at least: it never started, or
 * it was aborted, which only happens before the first move; or it was a
 * game against the computer in which the person never moved (nobody joined:
 * the computer's hand wins the lapsed opener, it moves first, and the absent
 * person loses by abandonment).
 */
function unplayedBefore(cutoff: Date): Prisma.Sql {
  // COALESCE: a match in play has no end, and NULL here would pass for unplayed under NOT.
  return Prisma.sql`((m.started_at IS NULL AND m.created_at < ${cutoff}) OR COALESCE(m.ended_at < ${cutoff} AND (m.end_reason = 'abort' OR (
      EXISTS (SELECT 1 FROM player b WHERE b.id IN (m.player0_id, m.player1_id) AND b.bot_level IS NOT NULL)
      AND NOT EXISTS (SELECT 1 FROM move mv JOIN player p ON p.id = mv.player_id WHERE mv.match_id = m.id AND p.bot_level IS NULL))), false))`;
}
