import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { HotSql } from '../db/hot-sql.js';
import type { MatchRow } from '../match-records/match-store.js';

/**
 * Moves in one statement, however many: for each, compare-and-set its match's
 * version (writing the columns a move can change, the ending included), then
 * insert the move and its events. A move whose match another change got to
 * first updates no row, so nothing of it is inserted. Each move's outcome
 * comes back by its place in the input (`n`). A move id its match has seen
 * before fails the whole statement on the unique index (see `send`); the
 * statement does not look for one itself, since a lookup in `move` planned
 * while the table was small stays a scan in the connection's cached plan.
 *
 * The matches are found by their keys (`$2`), not only by the join with the
 * input: jsonb_to_recordset is planned as 100 rows, so against a young table
 * of a few thousand matches the cached plan hashed the input and scanned all
 * of `match` for every batch (0.5–3.7 ms of a 2 ms statement at 1,000 games,
 * growing with the table). By key it is an index scan at any size: 0.39 ms.
 *
 * The next mover's clock starts when the move is committed, not when it was
 * decided: a move waits for its statement (a batch, the moves in flight, on
 * PGlite the one connection) up to a few hundred ms under load, which would
 * otherwise come out of the next mover's time. The statement moves the
 * clock's start and deadline on by `late`, the time from the decision (`at`)
 * to the statement, and the `moved` event's instants with them (`at`, and
 * its clocks' `asOf` and `startsAt`: clients set their clocks by them), and
 * answers it, so that what is published and held in memory is what was written.
 * `late` reads the database's clock against this process's, which are taken
 * to agree as the processes' clocks already must (NTP); a database clock
 * behind ours moves nothing.
 */
/** SQL: the jsonb `payload` with the instant at `path` moved `m.ms` later, written as `toISOString` does. */
function later(payload: string, path: string): string {
  const moved = `((${payload} #>> '{${path}}')::timestamptz + m.ms * interval '1 millisecond') AT TIME ZONE 'UTC'`;
  return `jsonb_set(${payload}, '{${path}}', to_jsonb(to_char(${moved}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))`;
}

export const commitMovesStatement = {
  name: 'commit-move',
  text: `
    WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
        n int, match_id uuid, from_version int, version int, position jsonb, clock0_ms int, clock1_ms int,
        turn_started_at timestamptz, clock_deadline timestamptz, status text, winner smallint, end_reason text,
        score0 int, score1 int, ended_at timestamptz, ply int, move_id text, player_id uuid,
        square smallint, dir smallint, remaining_ms int, moved_at timestamptz, events jsonb, at timestamptz)),
    late AS (SELECT n, GREATEST(0, floor(extract(epoch FROM clock_timestamp() - at) * 1000))::int AS ms FROM input),
    m AS (
      UPDATE match SET version = i.version, position = i.position, clock0_ms = i.clock0_ms, clock1_ms = i.clock1_ms,
        turn_started_at = i.turn_started_at + l.ms * interval '1 millisecond', clock_deadline = i.clock_deadline + l.ms * interval '1 millisecond',
        status = i.status::"MatchStatus", winner = i.winner, end_reason = i.end_reason, score0 = i.score0, score1 = i.score1, ended_at = i.ended_at
      FROM input i JOIN late l USING (n)
      WHERE match.id = ANY($2::uuid[]) AND match.id = i.match_id AND match.version = i.from_version
      RETURNING i.n, l.ms),
    mv AS (
      INSERT INTO move (id, match_id, ply, move_id, player_id, square, dir, version, remaining_ms, created_at)
      SELECT gen_random_uuid(), i.match_id, i.ply, i.move_id, i.player_id, i.square, i.dir, i.version, i.remaining_ms, i.moved_at
      FROM input i JOIN m USING (n)),
    ev AS (
      INSERT INTO match_event (match_id, version, payload, created_at)
      SELECT i.match_id, i.from_version + e.k,
        CASE WHEN m.ms = 0 OR e.payload #> '{event,clocks,startsAt}' IS NULL THEN e.payload
          ELSE ${later(later(later('e.payload', 'at'), 'event,clocks,asOf'), 'event,clocks,startsAt')} END,
        i.at
      FROM input i JOIN m USING (n), jsonb_array_elements(i.events) WITH ORDINALITY AS e(payload, k))
    SELECT n, ms FROM m`,
};

export interface MoveRecord {
  ply: number;
  moveId: string;
  playerId: string;
  square: number;
  dir: number;
  remainingMs: number | null;
  movedAt: Date;
}

/**
 * How the statement went: applied, with the clock's start moved `lateMs` on
 * (see `startedLater`); the match had moved on (decide again); or the move id was taken.
 */
export type CommitOutcome = { lateMs: number } | 'conflict' | 'duplicate';

interface Waiting {
  matchId: string;
  row: Record<string, unknown>;
  settle: (outcome: CommitOutcome | Error) => void;
}

/** Moves in one statement at most: a burst is sent in several, each a bounded size. */
const MAX_BATCH = 100;
/**
 * Statements under way at once, fewer than the hot path's pool (which the
 * opener's and the catch-up's statements share): while they are out, the
 * moves arriving meanwhile gather into the next, so a busier database gets
 * fewer, larger statements rather than a queue of small ones.
 */
const MAX_IN_FLIGHT = 8;

/**
 * The moves of one turn of the event loop (every socket read in it) go to the
 * database together: one round trip, one transaction and one WAL flush for
 * all, where each move alone costs the same again. A move waits at most for
 * the loop's turn to end, which it was spending anyway. Moves of one match
 * never share a statement (the match's queue allows one at a time anyway).
 */
export class MoveCommits {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly sql: HotSql) {}

  /** Commits `next` (the match row after the move, at its new version) over the row at `fromVersion`, with the move and the envelopes. */
  commit(fromVersion: number, next: MatchRow, move: MoveRecord, envelopes: MatchEventEnvelope[], at: Date): Promise<CommitOutcome> {
    return new Promise((resolve, reject) => {
      const row = {
        match_id: next.id,
        from_version: fromVersion,
        version: next.version,
        position: next.position,
        clock0_ms: next.clock0Ms,
        clock1_ms: next.clock1Ms,
        turn_started_at: next.turnStartedAt,
        clock_deadline: next.clockDeadline,
        status: next.status,
        winner: next.winner,
        end_reason: next.endReason,
        score0: next.score0,
        score1: next.score1,
        ended_at: next.endedAt,
        ply: move.ply,
        move_id: move.moveId,
        player_id: move.playerId,
        square: move.square,
        dir: move.dir,
        remaining_ms: move.remainingMs,
        moved_at: move.movedAt,
        events: envelopes,
        at,
      };
      this.waiting.push({ matchId: next.id, row, settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)) });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.waiting.length || this.inFlight >= MAX_IN_FLIGHT) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch: Waiting[] = [];
      const later: Waiting[] = [];
      const matches = new Set<string>();
      for (const waiting of this.waiting) {
        if (batch.length < MAX_BATCH && !matches.has(waiting.matchId)) {
          matches.add(waiting.matchId);
          batch.push(waiting);
        } else later.push(waiting);
      }
      this.waiting = later;
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
      this.schedule();
    });
  }

  private async send(batch: Waiting[]): Promise<void> {
    try {
      // Dates go as ISO strings, which is what JSON makes of them. Each row is numbered in place (it is sent once, or alone again).
      const rows = await this.sql.query<{ n: number; ms: number }>(commitMovesStatement, [JSON.stringify(batch.map((w, n) => ((w.row.n = n), w.row))), batch.map((w) => w.matchId)]);
      const applied = new Map(rows.map((row) => [row.n, row.ms]));
      for (const [n, waiting] of batch.entries()) {
        const lateMs = applied.get(n);
        waiting.settle(lateMs === undefined ? 'conflict' : { lateMs });
      }
    } catch (error) {
      // A move id seen before (rare: a resent move that got past the check in memory) failed the whole statement. Alone, each tells.
      if (isMoveIdTaken(error) && batch.length > 1) for (const waiting of batch) void this.send([waiting]);
      else if (isMoveIdTaken(error)) batch[0]!.settle('duplicate');
      else for (const waiting of batch) waiting.settle(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function isMoveIdTaken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'move_match_id_move_id_key';
}

/**
 * The row and events a move's statement was given, as it wrote them: the
 * running clock's start and deadline, and the instants of the `moved` event
 * that announces them, `lateMs` later.
 */
export function startedLater(next: MatchRow, envelopes: MatchEventEnvelope[], lateMs: number): { next: MatchRow; envelopes: MatchEventEnvelope[] } {
  if (lateMs === 0) return { next, envelopes };
  const later = (date: Date | null) => date && new Date(date.getTime() + lateMs);
  return {
    next: { ...next, turnStartedAt: later(next.turnStartedAt), clockDeadline: later(next.clockDeadline) },
    envelopes: envelopes.map((envelope) => {
      const { event } = envelope;
      const clocks = event.type === 'moved' ? event.clocks : null;
      if (!clocks?.startsAt) return envelope;
      const moved = (instant: string) => new Date(Date.parse(instant) + lateMs).toISOString();
      return { ...envelope, at: moved(envelope.at), event: { ...event, clocks: { ...clocks, asOf: moved(clocks.asOf), startsAt: moved(clocks.startsAt) } } };
    }),
  };
}
