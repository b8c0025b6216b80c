import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { PeriodicTask } from '../periodic-task.js';

/** How often each process proves the service is up. */
export const pulseEveryMs = 1000;
/** A longer silence of every process is an outage (the normal gap is one pulse, with some jitter). */
const outageAfterMs = 3 * pulseEveryMs;

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
 * Runs once before a process serves (so a restarted service credits before
 * its sweeps judge any clock), then every `pulseEveryMs`.
 */
export class OutageCredit {
  private readonly pulses: PeriodicTask;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {
    this.pulses = new PeriodicTask(() => this.pulse().then(() => undefined, (error: unknown) => this.log.warn({ err: error }, 'service pulse failed')), pulseEveryMs);
  }

  start(): void {
    this.pulses.start();
  }

  stop(): Promise<void> {
    return this.pulses.stop();
  }

  /** One pulse; resolves with the milliseconds credited to the matches in play (0 without an outage). */
  async pulse(): Promise<number> {
    return this.db.prisma.$transaction(async (tx) => {
      // FOR UPDATE waits for a process pulsing at the same moment and then reads its pulse: one credit per outage.
      const [last] = await tx.$queryRaw<Array<{ silentMs: number }>>`
        SELECT (extract(epoch FROM now() - at) * 1000)::int AS "silentMs" FROM service_pulse WHERE id = 1 FOR UPDATE`;
      await tx.$executeRaw`INSERT INTO service_pulse (id, at) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET at = excluded.at`;
      if (!last || last.silentMs <= outageAfterMs) return 0;
      const creditMs = last.silentMs - pulseEveryMs;
      const credited = await tx.$executeRaw`
        UPDATE match SET
          turn_started_at = turn_started_at + ${creditMs}::int * interval '1 millisecond',
          clock_deadline = clock_deadline + ${creditMs}::int * interval '1 millisecond',
          first_move_deadline = first_move_deadline + ${creditMs}::int * interval '1 millisecond'
        WHERE status = 'playing'`;
      this.log.warn({ outageMs: last.silentMs, creditMs, matches: credited }, 'the service was down: clocks of matches in play moved on by the outage');
      return creditMs;
    });
  }
}
