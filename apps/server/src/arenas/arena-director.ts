import type { FastifyBaseLogger } from 'fastify';
import { poolTimeControl, type ArenaView, type MatchEventEnvelope, type QueuePool } from '@oanquan/protocol';
import { PRESETS, type RuleOptions } from '@oanquan/rules';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import type { MatchObserver } from '../matches/match-service.js';
import type { Tx } from '../db/database.js';
import { PeriodicTask } from '../periodic-task.js';
import { pairMayBeRated } from '../ratings/rating-service.js';
import { newRoomCode } from '../rooms/room-code.js';
import { asJson } from '../rooms/room-service.js';
import { ARENA_REPEAT_AFTER_MS, arenaPairs } from './arena-pairing.js';
import { insertArenaRooms, type ArenaPairing } from './arena-rooms.js';
import { ArenaBoard } from './arena-board.js';
import { scheduledAround } from './arena-schedule.js';
import { phaseOf, refreshBoard, viewOf, type ArenaGameRow, type ArenaRow } from './arena-store.js';

/** The advisory lock of arena pairing (beside the cleanup's 7300502 and Prisma's migration lock). */
export const ARENA_LOCK = 7_300_503;

/** Pairs committed per transaction (see pairInBatches). */
const PAIRS_PER_TRANSACTION = 100;

export interface ArenaDirectorSettings {
  tickMs: number;
  /** How long two players who just met wait for someone else before they meet again (ARENA_REPEAT_AFTER_MS). */
  repeatAfterMs?: number;
  /** Make the scheduled arenas (hourly, daily). */
  schedule: boolean;
}

/** What a tick did to one arena, for the broadcasts that follow its commit. */
export interface ArenaTick {
  code: string;
  pairs: Array<{ players: [string, string]; roomCode: string; matchId: string }>;
  /** The first page of its standings as they now are (new pairs included). */
  view: ArenaView;
}

export interface ArenaAnnouncer {
  paired(arena: string, playerId: string, roomCode: string, matchId: string): void;
  standings(view: ArenaView): void;
}

/**
 * The arenas under way at `$1`. Every process ticks every second and again
 * at each match's end, mostly to find none: a prepared statement, not
 * Prisma's query compiler, whose cost per query an idle process noticed.
 */
const openArenasStatement = {
  name: 'open-arenas',
  text: `SELECT id::text AS id, code, name, pool, rules, rated, starts_at AS "startsAt", ends_at AS "endsAt", finished_at AS "finishedAt",
      EXISTS (SELECT 1 FROM arena_player ap WHERE ap.arena_id = arena.id) AS entered
    FROM arena WHERE finished_at IS NULL AND starts_at <= $1`,
};

/**
 * Whether a match is an arena's game. Every match's end is seen here, nearly
 * all of them not an arena's: one indexed lookup rather than a tick, whose
 * transaction per open arena (there is always the scheduled one) cost a busy
 * process about a sixth of its CPU at 300 games.
 */
const arenaGameStatement = {
  name: 'arena-game',
  text: 'SELECT 1 AS found FROM arena_game WHERE match_id = $1::uuid',
};

/**
 * Pairs arenas' free players, one node at a time: each arena's tick is one
 * transaction that first takes a transaction-level advisory lock without
 * waiting, so while one node pairs, the others skip; if it dies, its lock
 * goes with its connection and the next node to tick takes over. Everything
 * is read from the rows (arena players, arena games, match results), so no
 * node holds pairing state of its own and nobody is paired twice: a pair's
 * games are committed before the lock is let go.
 *
 * Each tick also sends the first page of the standings of any arena
 * whose page changed, so spectators on every node (through the Redis
 * adapter) see a result within a tick; a node that sees one of their games
 * end ticks at once. Each arena's board is kept between ticks and brought
 * up to the rows under the lock (only the games in play and those made
 * since are read), so a tick costs what changed, not every game played.
 */
export class ArenaDirector implements MatchObserver {
  private readonly ticks: PeriodicTask;
  /** What each arena's last broadcast showed, so an unchanged page is not sent again. */
  private readonly sent = new Map<string, string>();
  /** The open arenas' boards, by arena id. */
  private readonly boards = new Map<string, ArenaBoard<ArenaGameRow>>();
  /** When a tick last began (this process's monotonic clock), so that wakes come at most once a tick. */
  private lastTick = -Infinity;
  private woken: Promise<void> | null = null;
  private lastScheduled = 0;
  private readonly repeatAfterMs: number;

  constructor(
    private readonly db: Database,
    private readonly announce: ArenaAnnouncer,
    private readonly log: FastifyBaseLogger,
    private readonly settings: ArenaDirectorSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.ticks = new PeriodicTask(() => this.tickLogged(), settings.tickMs);
    this.repeatAfterMs = settings.repeatAfterMs ?? ARENA_REPEAT_AFTER_MS;
  }

  start(): void {
    this.ticks.start();
  }

  stop(): Promise<void> {
    return this.ticks.stop();
  }

  /**
   * An arena's match ended on this node: pair its players again without
   * waiting for the next tick. Resolves once that is done (for tests).
   */
  changed(match: { id: string; status: string }, envelopes: MatchEventEnvelope[]): Promise<void> | undefined {
    // Once, as it ends: the rematch's offers that follow change the ended match too.
    if (match.status === 'ended' && envelopes.some((envelope) => envelope.event.type === 'ended')) return this.endedGame(match.id);
    return undefined;
  }

  private async endedGame(matchId: string): Promise<void> {
    try {
      const rows = await this.db.sql.query(arenaGameStatement, [matchId]);
      if (rows.length) await this.ticks.run();
    } catch (error) {
      logFailure(this.log, error, { matchId }, 'arena tick failed');
    }
  }

  /**
   * Someone joined or paused: a tick sends the standings and pairs them if
   * it can, at once if none ran within the tick's length, else once that
   * length is over. However many join meanwhile, that is one tick and one
   * page sent.
   */
  wake(): Promise<void> {
    const wait = this.lastTick + this.settings.tickMs - performance.now();
    if (wait <= 0) return this.ticks.run();
    this.woken ??= new Promise<void>((resolve) => setTimeout(resolve, wait).unref()).then(() => {
      this.woken = null;
      return this.ticks.run();
    });
    return this.woken;
  }

  private async tickLogged(): Promise<void> {
    try {
      await this.tick();
    } catch (error) {
      logFailure(this.log, error, {}, 'arena tick failed');
    }
  }

  /** Every open arena once; returns what was done, for tests and the benchmark. */
  async tick(): Promise<ArenaTick[]> {
    this.lastTick = performance.now();
    const now = this.now();
    if (this.settings.schedule && now.getTime() - this.lastScheduled >= 60_000) {
      await this.makeScheduled(now);
      this.lastScheduled = now.getTime();
    }
    const open = await this.db.sql.query<ArenaRow & { entered: boolean }>(openArenasStatement, [now]);
    // An arena gone without a podium (nobody joined it) is forgotten with it.
    const codes = new Set(open.map((arena) => arena.code));
    for (const code of this.sent.keys()) if (!codes.has(code)) this.sent.delete(code);
    const ids = new Set(open.map((arena) => arena.id));
    for (const id of this.boards.keys()) if (!ids.has(id)) this.boards.delete(id);
    const done: ArenaTick[] = [];
    for (const { entered, ...arena } of open) {
      // Nobody has joined a running arena (the scheduled one, mostly): nothing to pair or score, so no transaction, whose
      // lock and two reads through Prisma every second, on every node, were CPU and garbage for nothing.
      const idle = !entered && phaseOf(arena, now) === 'running';
      const outcome = idle ? { code: arena.code, pairs: [], view: viewOf(arena, new ArenaBoard<ArenaGameRow>(), 1, null, now, this.repeatAfterMs) } : await this.pairInBatches(arena, now);
      if (outcome === null) return done;
      this.broadcast(outcome);
      done.push(outcome);
    }
    return done;
  }

  /**
   * A crowd that joined before the start is hundreds of pairs at once: they
   * are made a batch per transaction, each read afresh under the lock, so
   * no transaction holds the lock (or PGlite's one connection) for long.
   * Null when another node holds the lock.
   */
  private async pairInBatches(arena: ArenaRow, now: Date): Promise<ArenaTick | null> {
    let merged = null as ArenaTick | null;
    for (;;) {
      const board = this.boards.get(arena.id) ?? new ArenaBoard<ArenaGameRow>();
      this.boards.set(arena.id, board);
      const batch = await this.db.prisma
        .$transaction(
          async (tx) => {
            const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${ARENA_LOCK}::int8) AS locked`;
            return row?.locked ? this.pairArena(tx, arena, board, now) : null;
          },
          { timeout: 15_000 },
        )
        .catch((error: unknown) => {
          // The board may hold what was rolled back: made again from the rows at the next tick.
          this.boards.delete(arena.id);
          throw error;
        });
      if (batch === null) return merged;
      merged = { ...batch, pairs: [...(merged?.pairs ?? []), ...batch.pairs] };
      if (batch.pairs.length < PAIRS_PER_TRANSACTION) return merged;
    }
  }

  private async pairArena(tx: Tx, arena: ArenaRow, board: ArenaBoard<ArenaGameRow>, now: Date): Promise<ArenaTick> {
    await refreshBoard(tx, arena.id, board, this.now());
    const pairs: ArenaTick['pairs'] = [];
    const phase = phaseOf(arena, now);
    const gone = board.standings().filter((s) => s.noShow).map((s) => s.playerId);
    if (gone.length > 0) {
      // Not there for their last game: paused as if they had left, so nobody else waits on them; joining again resumes.
      // Marked as a pause is (active_since), when it is written: the next read of the entrants looks back from then.
      await tx.arenaPlayer.updateMany({ where: { arenaId: arena.id, playerId: { in: gone } }, data: { active: false, activeSince: this.now() } });
      board.pause(gone);
    }
    const standings = board.standings();
    if (phase === 'running') {
      const free = standings.filter((s) => s.active && s.playing === null);
      const chosen = arenaPairs(free, now.getTime(), this.repeatAfterMs).slice(0, PAIRS_PER_TRANSACTION);
      const pairings: ArenaPairing[] = [];
      for (const [a, b] of chosen) {
        const seats: [string, string] = [a.playerId, b.playerId];
        pairings.push({ seats, rated: arena.rated && (await pairMayBeRated(tx, seats, now)) });
      }
      const made = await insertArenaRooms(tx, arena.id, { rules: arena.rules as RuleOptions, timeControl: poolTimeControl(arena.pool as QueuePool) }, pairings);
      const nameOf = new Map(standings.map((s) => [s.playerId, s.name]));
      // What the new games change in the standings (who plays, whom they met), without reading the rows again.
      board.apply(
        made.map(({ roomCode, matchId, createdAt }, i) => {
          const [player0Id, player1Id] = pairings[i]!.seats;
          pairs.push({ players: [player0Id, player1Id], roomCode, matchId });
          const names = { name0: nameOf.get(player0Id)!, name1: nameOf.get(player1Id)! };
          return { matchId, player0Id, player1Id, createdAt, ended: false, winner: null, endReason: null, endedAt: null, first: null, firstMoveDeadline: null, roomCode, ...names };
        }),
      );
    } else if (phase === 'ending' && standings.length === 0) {
      // Nobody came: nothing to show, nothing to keep.
      await tx.arena.delete({ where: { id: arena.id } });
    } else if (phase === 'ending' && board.games().live.length === 0) {
      // Time is up and the last games have counted: the podium.
      arena = await tx.arena.update({
        where: { id: arena.id },
        data: { finishedAt: now },
        select: { id: true, code: true, name: true, pool: true, rules: true, rated: true, startsAt: true, endsAt: true, finishedAt: true },
      });
    }
    return { code: arena.code, pairs, view: viewOf(arena, board, 1, null, now, this.repeatAfterMs) };
  }

  private broadcast({ code, pairs, view }: ArenaTick): void {
    for (const { players, roomCode, matchId } of pairs) for (const playerId of players) this.announce.paired(code, playerId, roomCode, matchId);
    // The page sent, but for the clock it carries: what spectators would see change.
    const key = JSON.stringify({ ...view, now: null });
    if (this.sent.get(code) === key) return;
    // An arena nobody joined is remembered too: else its empty standings went out at every tick, and every game's
    // end ticks, through Redis to every node (with two nodes, a broadcast per twenty moves or so, for nobody).
    if (view.phase === 'finished') this.sent.delete(code);
    else this.sent.set(code, key);
    this.announce.standings(view);
  }

  /** Made by whichever node comes first; the unique (schedule, start) makes the others' inserts no-ops. */
  private async makeScheduled(now: Date): Promise<void> {
    await this.db.prisma.arena.createMany({
      data: scheduledAround(now).map((s) => ({
        code: newRoomCode(),
        name: s.schedule,
        schedule: s.schedule,
        pool: s.pool,
        rules: asJson(PRESETS.classic),
        rated: true,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
      })),
      skipDuplicates: true,
    });
  }
}
