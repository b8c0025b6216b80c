import type { FastifyBaseLogger } from 'fastify';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import { PeriodicTask } from '../periodic-task.js';
import type { MatchObserver, MatchService } from './match-service.js';

const dueKinds = ['clock', 'first-move', 'abandoned', 'opener', 'idle-opener'] as const;
type DueKind = (typeof dueKinds)[number];

/**
 * Every kind of deadline due, at most 100 of each, in one prepared statement:
 * the sweep runs every two seconds on every process whether anything is due
 * or not, and a query per kind through Prisma's query compiler cost an idle
 * process more CPU than everything else it does. `$1` is now, `$2` the
 * instant before which an absence is past the grace, `$3` the one before
 * which an opener round has lapsed, `$4` the one before which an opener
 * nobody chose in is idle (this process's clock, as the timers'). An idle
 * opener has no open round and its last activity, the later of its making
 * and its latest event (the seat that began it, a tied round), is that old;
 * the latest event is found by the (match_id, version) key.
 */
const dueStatement = {
  name: 'deadlines-due',
  text: `
    (SELECT 'clock' AS kind, id::text AS id FROM match WHERE status = 'playing' AND clock_deadline <= $1 LIMIT 100)
    UNION ALL
    (SELECT 'first-move', m.id::text FROM match m
      WHERE m.status = 'playing' AND m.first_move_deadline <= $1 AND NOT EXISTS (SELECT 1 FROM move mv WHERE mv.match_id = m.id) LIMIT 100)
    UNION ALL
    (SELECT 'abandoned', id::text FROM match WHERE status IN ('opener', 'playing') AND absent0_since <= $2 AND absent1_since <= $2 LIMIT 100)
    UNION ALL
    (SELECT 'opener', r.match_id::text FROM opener_round r JOIN match m ON m.id = r.match_id
      WHERE r.decided_at IS NULL AND r.created_at <= $3 AND m.status = 'opener' LIMIT 100)
    UNION ALL
    (SELECT 'idle-opener', m.id::text FROM match m
      WHERE m.status = 'opener' AND m.created_at <= $4
        AND NOT EXISTS (SELECT 1 FROM opener_round r WHERE r.match_id = m.id AND r.decided_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM (SELECT e.created_at FROM match_event e WHERE e.match_id = m.id ORDER BY e.version DESC LIMIT 1) last WHERE last.created_at > $4)
      LIMIT 100)`,
};

/**
 * Acts on deadlines without waiting for anyone: ends matches whose running
 * clock has run out, aborts those whose first move is overdue, decides
 * openers the second player let lapse, aborts openers nobody chooses a
 * hand in, and ends matches both players left longer than the abandonment
 * grace ago. A timer fires at each clock or first-move deadline this
 * process knows of; a periodic sweep of the database catches the rest
 * (deadlines set by another process, or before a restart, openers and
 * absences). Several processes may try the same match:
 * the version compare-and-set lets exactly one act.
 */
export class DeadlineSweeper implements MatchObserver {
  /**
   * The clock or first-move deadline of each match in play here (epoch ms),
   * behind one timer for the earliest: every move moves its match's deadline,
   * and a timer of its own made and cleared per move cost more than the move's
   * rules. The timer, set for a deadline a move has since moved on, finds
   * nothing due and is set again for the earliest.
   */
  private readonly deadlines = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (epoch ms). */
  private timerAt = Infinity;
  private readonly sweeps: PeriodicTask;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly matches: MatchService,
    private readonly log: FastifyBaseLogger,
    private readonly settings: { abandonGraceMs: number },
    sweepEveryMs = 2000,
  ) {
    this.sweeps = new PeriodicTask(() => this.sweep(), sweepEveryMs);
  }

  start(): void {
    this.matches.observe(this);
    this.sweeps.start();
    void this.sweeps.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.deadlines.clear();
    await this.sweeps.stop();
  }

  changed(match: { id: string; status: string; clockDeadline: Date | null }, envelopes: MatchEventEnvelope[]): void {
    const deadline = match.clockDeadline?.getTime() ?? firstMoveDeadline(envelopes);
    if (this.stopped || match.status !== 'playing' || deadline === undefined) {
      this.deadlines.delete(match.id);
      return;
    }
    this.deadlines.set(match.id, deadline);
    if (deadline + 5 < this.timerAt) this.wakeAt(deadline + 5);
  }

  private wakeAt(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.due(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  /** The matches whose deadline has passed are expired; the timer is set for the earliest of the others. */
  private due(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [matchId, deadline] of this.deadlines) {
      if (deadline + 5 <= now) {
        this.deadlines.delete(matchId);
        void this.expire(matchId);
      } else next = Math.min(next, deadline + 5);
    }
    if (next < Infinity && !this.stopped) this.wakeAt(next);
  }

  private async sweep(): Promise<void> {
    try {
      const now = Date.now();
      const due = await this.db.sql.query<{ kind: DueKind; id: string }>(dueStatement, [
        new Date(now),
        new Date(now - this.settings.abandonGraceMs),
        new Date(now - this.matches.openerTimeoutMs),
        new Date(now - this.matches.firstMoveTimeoutMs),
      ]);
      // In the order the kinds are listed; a match under two of them is acted on once, for the first.
      const done = new Set<string>();
      for (const { kind, id } of due.sort((a, b) => dueKinds.indexOf(a.kind) - dueKinds.indexOf(b.kind))) {
        if (done.has(id)) continue;
        done.add(id);
        if (kind === 'clock' || kind === 'first-move') await this.expire(id);
        else if (kind === 'abandoned') {
          await this.matches.endAbandoned(id, this.settings.abandonGraceMs).catch((error: unknown) => logFailure(this.log, error, { matchId: id }, 'ending an abandoned match failed'));
        } else if (kind === 'opener') {
          await this.matches.forfeitOpener(id).catch((error: unknown) => logFailure(this.log, error, { matchId: id }, 'opener timeout failed'));
        } else {
          await this.matches.endIdleOpener(id).catch((error: unknown) => logFailure(this.log, error, { matchId: id }, 'ending an idle opener failed'));
        }
      }
    } catch (error) {
      logFailure(this.log, error, {}, 'deadline sweep failed');
    }
  }

  private async expire(matchId: string): Promise<void> {
    await this.matches.expire(matchId).catch((error: unknown) => logFailure(this.log, error, { matchId }, 'timeout failed'));
  }
}

/** The first-move deadline a match's `started` event set, if these events start it. */
function firstMoveDeadline(envelopes: MatchEventEnvelope[]): number | undefined {
  for (const { event } of envelopes) if (event.type === 'started') return Date.parse(event.firstMoveDeadline);
  return undefined;
}
