import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { PeriodicTask } from '../periodic-task.js';
import type { MatchObserver, MatchService } from './match-service.js';

/**
 * Acts on deadlines without waiting for anyone: ends matches whose running
 * clock has run out, and decides openers the second player let lapse. A
 * timer fires at each clock deadline this process knows of; a periodic sweep
 * of the database catches the rest (deadlines set by another process, or
 * before a restart, and every opener). Several processes may try the same
 * match: the version compare-and-set lets exactly one act.
 */
export class DeadlineSweeper implements MatchObserver {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly sweeps: PeriodicTask;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly matches: MatchService,
    private readonly log: FastifyBaseLogger,
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

  changed(match: { id: string; status: string; clockDeadline: Date | null }): void {
    clearTimeout(this.timers.get(match.id));
    this.timers.delete(match.id);
    if (this.stopped || match.status !== 'playing' || !match.clockDeadline) return;
    const timer = setTimeout(() => {
      this.timers.delete(match.id);
      void this.expire(match.id);
    }, Math.max(0, match.clockDeadline.getTime() - Date.now()) + 5);
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
      const lapsed = await this.db.prisma.openerRound.findMany({
        where: { decidedAt: null, createdAt: { lte: new Date(Date.now() - this.matches.openerTimeoutMs) }, match: { status: 'opener' } },
        select: { matchId: true },
        take: 100,
      });
      for (const { matchId } of lapsed) {
        await this.matches.forfeitOpener(matchId).catch((error: unknown) => this.log.error({ err: error, matchId }, 'opener timeout failed'));
      }
    } catch (error) {
      this.log.error({ err: error }, 'deadline sweep failed');
    }
  }

  private async expire(matchId: string): Promise<void> {
    await this.matches.expire(matchId).catch((error: unknown) => this.log.error({ err: error, matchId }, 'timeout failed'));
  }
}
