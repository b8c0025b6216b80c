import type { FastifyBaseLogger } from 'fastify';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import { PeriodicTask } from '../periodic-task.js';
import type { MatchObserver, MatchService } from './match-service.js';

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
      const due = await this.db.prisma.match.findMany({
        where: { status: 'playing', clockDeadline: { lte: new Date() } },
        select: { id: true },
        take: 100,
      });
      for (const { id } of due) await this.expire(id);
      const firstMoveDue = await this.db.prisma.match.findMany({
        where: { status: 'playing', firstMoveDeadline: { lte: new Date() }, moves: { none: {} } },
        select: { id: true },
        take: 100,
      });
      for (const { id } of firstMoveDue) await this.expire(id);
      const goneSince = new Date(Date.now() - this.settings.abandonGraceMs);
      const abandoned = await this.db.prisma.match.findMany({
        where: { status: { in: ['opener', 'playing'] }, absent0Since: { lte: goneSince }, absent1Since: { lte: goneSince } },
        select: { id: true },
        take: 100,
      });
      for (const { id } of abandoned) {
        await this.matches.endAbandoned(id, this.settings.abandonGraceMs).catch((error: unknown) => logFailure(this.log, error, { matchId: id }, 'ending an abandoned match failed'));
      }
      const lapsed = await this.db.prisma.openerRound.findMany({
        where: { decidedAt: null, createdAt: { lte: new Date(Date.now() - this.matches.openerTimeoutMs) }, match: { status: 'opener' } },
        select: { matchId: true },
        take: 100,
      });
      for (const { matchId } of lapsed) {
        await this.matches.forfeitOpener(matchId).catch((error: unknown) => logFailure(this.log, error, { matchId }, 'opener timeout failed'));
      }
    } catch (error) {
      logFailure(this.log, error, {}, 'deadline sweep failed');
    }
  }

  private async expire(matchId: string): Promise<void> {
    await this.matches.expire(matchId).catch((error: unknown) => logFailure(this.log, error, { matchId }, 'timeout failed'));
  }
}
