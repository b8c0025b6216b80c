import type { FastifyBaseLogger } from 'fastify';
import { PRESETS } from '@oanquan/rules';
import { ErrorCode, poolTimeControl, queuePools, type PublicPlayer, type QueuePool } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { logFailure, ServiceError } from '../errors.js';
import { PeriodicTask } from '../periodic-task.js';
import { guestRemoved } from '../players/guest-removed.js';
import { pairMayBeRated } from '../ratings/rating-service.js';
import { insertRoom } from '../rooms/room-service.js';
import { playerChannel, type GameServer } from '../realtime/game-server.js';
import { choosePairs, type GapSettings } from './pairing.js';

/** A tick's upkeep: entries unrefreshed for `$1` ms deleted; the pools where two fresh ones wait. */
const queueTickStatement = {
  name: 'queue-tick',
  text: `
    WITH dropped AS (
      DELETE FROM queue_entry WHERE player_id IN (
        SELECT player_id FROM queue_entry WHERE seen_at < now() - $1::int * interval '1 millisecond' FOR UPDATE SKIP LOCKED)
      RETURNING 1)
    SELECT (SELECT count(*) FROM dropped)::int AS dropped,
      ARRAY(SELECT pool::text FROM queue_entry WHERE seen_at >= now() - $1::int * interval '1 millisecond' GROUP BY pool HAVING count(*) >= 2) AS pools`,
};

export interface MatchmakerSettings extends GapSettings {
  tickMs: number;
  /** Told of each paired player's wait, once the pairing is committed (the metrics). */
  onPaired?: (pool: QueuePool, waitedMs: number) => void;
}

/**
 * The public queue. Its state is the `queue_entry` table, so several server
 * processes sharing one database pair from the same queue: each tick reads a
 * pool's rows `FOR UPDATE SKIP LOCKED`, so a row one process is pairing is
 * invisible to the others (nobody is paired twice), and the rows of paired
 * players are deleted in the transaction that creates their match (nobody
 * is lost: if it fails, they are still waiting). SKIP LOCKED rather than an
 * advisory lock lets two processes pair disjoint players at the same time.
 *
 * A process that dies cannot delete its players' entries, so each tick
 * refreshes the `seen_at` of the entries of this process's connections;
 * entries left unrefreshed for `staleMs` belong to a dead process: never
 * paired, and deleted.
 */
export class Matchmaker {
  /** Sockets of this process that wait, for the status messages. */
  private readonly local = new Map<string, { playerId: string; pool: QueuePool; joinedAt: Date }>();
  private readonly ticks: PeriodicTask;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly io: GameServer,
    private readonly log: FastifyBaseLogger,
    private readonly settings: MatchmakerSettings,
  ) {
    this.ticks = new PeriodicTask(() => this.tick(), settings.tickMs);
    this.staleMs = Math.max(3 * settings.tickMs, 3000);
  }

  private readonly staleMs: number;

  start(): void {
    this.ticks.start();
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.ticks.stop();
  }

  /**
   * Joining again (another pool, another tab) replaces the earlier entry.
   * Rated play needs an account (judged now, so a guest who just kept their
   * account plays rated at once); unless asked, an account plays rated and a guest casual.
   */
  async join(player: PublicPlayer, connection: string, pool: QueuePool, asked?: boolean): Promise<void> {
    const found = await this.db.prisma.player.findUnique({ where: { id: player.id }, select: { rating: true, passwordHash: true } });
    // A socket outlives its guest when the cleanup removes them.
    if (!found) throw guestRemoved();
    const { rating, passwordHash } = found;
    const rated = asked ?? passwordHash !== null;
    if (rated && passwordHash === null) {
      throw new ServiceError(ErrorCode.AccountRequired, 'Rated games need an account: keep your account, or play casual', 403);
    }
    const joinedAt = new Date();
    await this.db.prisma.queueEntry.upsert({
      where: { playerId: player.id },
      create: { playerId: player.id, pool, rated, rating, connection, joinedAt, seenAt: joinedAt },
      update: { pool, rated, rating, connection, joinedAt, seenAt: joinedAt },
    });
    this.forgetLocal(player.id);
    this.local.set(connection, { playerId: player.id, pool, joinedAt });
  }

  async leave(playerId: string): Promise<void> {
    await this.db.prisma.queueEntry.deleteMany({ where: { playerId } });
    this.forgetLocal(playerId);
  }

  /** A closed connection takes its queue entry with it (not on shutdown: the player may reconnect to another process). */
  async disconnected(connection: string): Promise<void> {
    if (this.stopped) return;
    this.local.delete(connection);
    await this.db.prisma.queueEntry.deleteMany({ where: { connection } });
  }

  private async tick(): Promise<void> {
    try {
      await this.keepAlive();
      const pairable = await this.dropStale();
      for (const pool of queuePools) if (pairable.has(pool)) await this.pair(pool);
      await this.sendStatus();
    } catch (error) {
      logFailure(this.log, error, {}, 'matchmaking tick failed');
    }
  }

  private async pair(pool: QueuePool): Promise<void> {
    const made = await this.db.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ player_id: string; rating: number; joined_at: Date; rated: boolean }>>`
        SELECT player_id, rating, joined_at, rated FROM queue_entry
        WHERE pool = ${pool} AND seen_at >= now() - ${this.staleMs}::int * interval '1 millisecond'
        ORDER BY joined_at FOR UPDATE SKIP LOCKED`;
      const now = new Date();
      // Rated games are between accounts only (rated entries come only from accounts); guests play each other casually.
      const pairsOf = (rated: boolean) =>
        choosePairs(
          rows.filter((row) => row.rated === rated).map((row) => ({ playerId: row.player_id, rating: row.rating, joinedAt: row.joined_at })),
          now,
          this.settings,
        ).map((pair) => ({ pair, rated }));
      const matches: Array<{ players: [string, string]; roomCode: string; matchId: string; waitedMs: number[] }> = [];
      for (const { pair: [a, b], rated } of [...pairsOf(true), ...pairsOf(false)]) {
        await tx.queueEntry.deleteMany({ where: { playerId: { in: [a.playerId, b.playerId] } } });
        const { code, matchId } = await insertRoom(tx, {
          creatorId: a.playerId,
          rules: PRESETS.classic,
          timeControl: poolTimeControl(pool),
          // A pair past its daily rated games plays casual, and is told so from the opener on: the end would not rate it.
          rated: rated && (await pairMayBeRated(tx, [a.playerId, b.playerId], now)),
          seats: [a.playerId, b.playerId],
        });
        matches.push({ players: [a.playerId, b.playerId], roomCode: code, matchId, waitedMs: [a, b].map((entry) => now.getTime() - entry.joinedAt.getTime()) });
      }
      return matches;
    });
    for (const { players, roomCode, matchId, waitedMs } of made) {
      for (const waited of waitedMs) this.settings.onPaired?.(pool, waited);
      for (const playerId of players) {
        this.forgetLocal(playerId);
        this.io.to(playerChannel(playerId)).emit('queue:matched', { roomCode, matchId });
      }
    }
  }

  /** This process is alive and its connections still wait; another process may have paired some of them (their rows are gone). */
  private async keepAlive(): Promise<void> {
    if (this.local.size === 0) return;
    const asked = [...this.local.keys()];
    const still = await this.db.prisma.$queryRaw<Array<{ connection: string }>>`
      UPDATE queue_entry SET seen_at = now() WHERE connection = ANY(${asked}::text[]) RETURNING connection`;
    const waiting = new Set(still.map((row) => row.connection));
    // Only the connections this refresh asked about: one that joined while it ran was not in it, and forgetting
    // it would leave its entry unrefreshed, to be dropped as a gone process's while its player still waits.
    for (const socketId of asked) if (!waiting.has(socketId)) this.local.delete(socketId);
  }

  /**
   * Entries of a process that died are dropped (rows another process is
   * pairing are skipped, not waited for); answers the pools where two fresh
   * entries wait, the only ones a pairing transaction can pair. One prepared
   * statement: every process ticks every second, mostly with nobody waiting,
   * and a transaction per pool through Prisma was most of an idle process's CPU.
   */
  private async dropStale(): Promise<Set<string>> {
    const [row] = await this.db.sql.query<{ dropped: number; pools: string[] }>(queueTickStatement, [this.staleMs]);
    if (row!.dropped > 0) this.log.info({ dropped: row!.dropped }, 'dropped queue entries of a process that is gone');
    return new Set(row!.pools);
  }

  private forgetLocal(playerId: string): void {
    for (const [socketId, entry] of this.local) if (entry.playerId === playerId) this.local.delete(socketId);
  }

  private async sendStatus(): Promise<void> {
    if (this.local.size === 0) return;
    const counts = await this.db.prisma.queueEntry.groupBy({ by: ['pool'], _count: { _all: true } });
    const now = Date.now();
    for (const [socketId, entry] of this.local) {
      const waiting = counts.find((c) => c.pool === entry.pool)?._count._all ?? 0;
      this.io.to(socketId).emit('queue:status', { pool: entry.pool, waitedMs: now - entry.joinedAt.getTime(), waiting });
    }
  }
}
