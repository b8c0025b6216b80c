import type { FastifyBaseLogger } from 'fastify';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import { PeriodicTask } from '../periodic-task.js';
import type { MatchObserver, MatchService } from './match-service.js';

const dueKinds = ['clock', 'first-move', 'abandoned', 'opener'] as const;
type DueKind = (typeof dueKinds)[number];

/**
 * Every kind of deadline due, at most 100 of each, in one prepared statement:
 * the sweep runs every two seconds on every process whether anything is due
 * or not, and four queries through Prisma's query compiler cost an idle
 * process more CPU than everything else it does. `$1` is now, `$2` the
 * instant before which an absence is past the grace, `$3` the one before
 * which an opener round has lapsed (this process's clock, as the timers').
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
      WHERE r.decided_at IS NULL AND r.created_at <= $3 AND m.status = 'opener' LIMIT 100)`,
};

/**
 * Acts on deadlines without waiting for anyone: ends matches whose running
 * clock has run out, aborts those whose first move is overdue, decides
 * openers the second player let lapse, and ends matches both players left
 * longer than the abandonment grace ago. A timer fires at each clock or
 * first-move deadline this process knows of; a periodic sweep of the
 * database catches the rest (deadlines set by another process, or before a
 * restart, openers and absences). Several processes may try the same match:
 * the version compare-and-set lets exactly one act.
 */
export class DeadlineSweeper implements MatchObserver {
  private readonly timers = new Map<string, NodeJS.Timeout>();
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
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.sweeps.stop();
  }

  changed(match: { id: string; status: string; clockDeadline: Date | null }, envelopes: MatchEventEnvelope[]): void {
    clearTimeout(this.timers.get(match.id));
    this.timers.delete(match.id);
    const started = envelopes.map((envelope) => envelope.event).find((event) => event.type === 'started');
    const deadline = match.clockDeadline ?? (started?.type === 'started' ? new Date(started.firstMoveDeadline) : null);
    if (this.stopped || match.status !== 'playing' || !deadline) return;
    const timer = setTimeout(() => {
      this.timers.delete(match.id);
      void this.expire(match.id);
    }, Math.max(0, deadline.getTime() - Date.now()) + 5);
    timer.unref();
    this.timers.set(match.id, timer);
  }

  private async sweep(): Promise<void> {
    try {
      const now = Date.now();
      const due = await this.db.sql.query<{ kind: DueKind; id: string }>(dueStatement, [
        new Date(now),
        new Date(now - this.settings.abandonGraceMs),
        new Date(now - this.matches.openerTimeoutMs),
      ]);
      // In the order the kinds are listed; a match under two of them is acted on once, for the first.
      const done = new Set<string>();
      for (const { kind, id } of due.sort((a, b) => dueKinds.indexOf(a.kind) - dueKinds.indexOf(b.kind))) {
        if (done.has(id)) continue;
        done.add(id);
        if (kind === 'clock' || kind === 'first-move') await this.expire(id);
        else if (kind === 'abandoned') {
          await this.matches.endAbandoned(id, this.settings.abandonGraceMs).catch((error: unknown) => logFailure(this.log, error, { matchId: id }, 'ending an abandoned match failed'));
        } else {
          await this.matches.forfeitOpener(id).catch((error: unknown) => logFailure(this.log, error, { matchId: id }, 'opener timeout failed'));
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
