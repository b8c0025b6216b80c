import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnreachable } from '../db/connection-errors.js';
import type { Database } from '../db/database.js';
import type { Publish } from '../matches/match-service.js';
import { PeriodicTask } from '../periodic-task.js';
import { creditMatches, type CreditedMatch } from './credited-matches.js';

/** How often each process proves the service is up. */
export const pulseEveryMs = 1000;
/** A longer silence of every process is an outage (the normal gap is one pulse, with some jitter). */
const outageAfterMs = 3 * pulseEveryMs;
/**
 * A longer silence of this process's own pulses may hide an outage credited
 * by another process meanwhile (less than `outageAfterMs`, for the time a
 * pulse takes to commit).
 */
const ownSilenceMs = outageAfterMs - pulseEveryMs;

/** The pulse of a process that credits nothing: the shared instant moves on, the count of credits is read. */
const pulseStatement = {
  name: 'service-pulse',
  text: `INSERT INTO service_pulse (id, at, credits) VALUES (1, now(), 0)
    ON CONFLICT (id) DO UPDATE SET at = excluded.at RETURNING credits`,
};

/**
 * Time during which no process could accept a move is not charged to the
 * player to move. The reading: the service was up when some process could
 * reach the database, so every process writes a shared pulse each second;
 * when the previous pulse is older than `outageAfterMs` (every process was
 * dead or cut off from the database), the process that notices first moves
 * the clocks of every match in play forward by the silence, less the one
 * pulse interval during which the service may still have been up. The row
 * lock makes exactly one process credit each outage. A single process down
 * while others run is no outage: its players reconnect to the others.
 *
 * A stale pulse alone proves nothing: a process whose pulse was late (its
 * event loop busy, its transaction queued behind a burst of others) was up
 * all along and served its players. So a process credits only what it may
 * itself have been part of: a silence before it started, or one during which
 * it was cut off from the database (a pulse failed as unreachable). On
 * PGlite, where one process is the whole service and the database cannot be
 * lost while it lives, only a restart credits.
 *
 * The credit covers the clocks, the first-move deadline and the opener's
 * deadline (a round's `created_at`, from which it is reckoned), each match
 * with an event at its next version that tells its clients the new ones
 * (see credited-matches.ts).
 *
 * Runs once before a process serves (so a restarted service credits before
 * its sweeps judge any clock), then every `pulseEveryMs`. A process that
 * stayed up through an outage (its database gone) judges no deadline until
 * it has pulsed again (`settled`), so nothing it does after the outage runs
 * ahead of the credit; and it forgets the match rows it holds in memory
 * (`onResume`), which the credit changed.
 */
export class OutageCredit {
  private readonly pulses: PeriodicTask;
  /** When this process's last successful pulse began (its clock): a pulse commits after the shared one it read. */
  private pulsedAt = 0;
  /** The count of outages credited, as this process last read it. */
  private creditsSeen: number | undefined;
  /** Whether this process may have been down or cut off from the database since its last successful pulse. */
  private mayHaveBeenDown = true;
  private catchingUp: Promise<void> | undefined;
  private readonly resumed: Array<() => void> = [];

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly matches: { openerTimeoutMs: number; publish: Publish },
  ) {
    this.pulses = new PeriodicTask(() => this.pulse().then(() => undefined, (error: unknown) => this.log.warn({ err: error }, 'service pulse failed')), pulseEveryMs);
  }

  start(): void {
    this.pulses.start();
  }

  stop(): Promise<void> {
    return this.pulses.stop();
  }

  /**
   * Called after the first pulse that follows a silence of this process, if an
   * outage was credited since its previous pulse: the credit is in the
   * database by then. A silence that was only this process running late (a
   * burst of work, a pause) changed nothing held in memory.
   */
  onResume(listener: () => void): void {
    this.resumed.push(listener);
  }

  /**
   * Nothing (at once) while this process pulses as usual; after a silence
   * of its own, one pulse now, so that an outage is credited before any
   * deadline is judged. Its failure is the caller's next database error.
   */
  settled(): Promise<void> | undefined {
    if (Date.now() - this.pulsedAt <= ownSilenceMs) return undefined;
    this.catchingUp ??= this.pulse().then(
      () => undefined,
      () => undefined,
    ).finally(() => (this.catchingUp = undefined));
    return this.catchingUp;
  }

  /** One pulse; resolves with the milliseconds credited to the matches in play (0 without an outage). */
  async pulse(): Promise<number> {
    const startedAt = Date.now();
    const { creditMs, credits, credited } = await this.credit().catch((error: unknown) => {
      if (isDatabaseUnreachable(error)) this.mayHaveBeenDown = true;
      throw error;
    });
    this.mayHaveBeenDown = false;
    const wasSilent = startedAt - this.pulsedAt > ownSilenceMs;
    const creditedMeanwhile = credits !== this.creditsSeen;
    this.pulsedAt = Math.max(this.pulsedAt, startedAt);
    this.creditsSeen = credits;
    if (wasSilent && creditedMeanwhile) for (const listener of this.resumed) listener();
    await Promise.all(credited.map(({ roomCode, envelope }) => this.matches.publish(roomCode, [envelope])));
    return creditMs;
  }

  /** The credit, if the service was down; with the count of credits so far, this one included, and the matches credited. */
  private async credit(): Promise<{ creditMs: number; credits: number; credited: CreditedMatch[] }> {
    // A process that cannot have been down credits nothing, whatever the silence: its pulse is one
    // statement, whose row lock waits for a process crediting at the same moment, as FOR UPDATE does.
    // (Every second on every process: an interactive transaction through Prisma cost an idle process
    // more CPU than anything else it did.)
    if (!this.mayHaveBeenDown) {
      const [row] = await this.db.sql.query<{ credits: number }>(pulseStatement, []);
      return { creditMs: 0, credits: row!.credits, credited: [] };
    }
    return this.db.prisma.$transaction(async (tx) => {
      // FOR UPDATE waits for a process pulsing at the same moment and then reads its pulse: one credit per outage.
      const [last] = await tx.$queryRaw<Array<{ silentMs: number; credits: number }>>`
        SELECT (extract(epoch FROM now() - at) * 1000)::int AS "silentMs", credits FROM service_pulse WHERE id = 1 FOR UPDATE`;
      const outage = last !== undefined && last.silentMs > outageAfterMs && this.mayHaveBeenDown;
      const credits = (last?.credits ?? 0) + (outage ? 1 : 0);
      await tx.$executeRaw`INSERT INTO service_pulse (id, at, credits) VALUES (1, now(), ${credits}) ON CONFLICT (id) DO UPDATE SET at = excluded.at, credits = excluded.credits`;
      if (!outage) return { creditMs: 0, credits, credited: [] };
      const creditMs = last.silentMs - pulseEveryMs;
      const credited = await creditMatches(tx, creditMs, this.matches.openerTimeoutMs, new Date());
      this.log.warn({ outageMs: last.silentMs, creditMs, matches: credited.length }, 'the service was down: clocks and deadlines of matches in play moved on by the outage');
      return { creditMs, credits, credited };
    });
  }
}
