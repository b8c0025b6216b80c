import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { engines, migratedDatabase } from '../testing/databases.js';
import { OutageCredit } from './outage-credit.js';

const log = pino({ level: 'silent' });
/** No client follows these matches. */
const unwatched = { openerTimeoutMs: 30_000, publish: () => {} };
/** Longer than a process's own silence may be before it waits for a pulse (two pulse intervals). */
const silence = () => new Promise((resolve) => setTimeout(resolve, 2200));

/**
 * A process that was silent itself forgets the match rows it holds only when
 * an outage was credited meanwhile: a process running late under a burst of
 * work changed nothing, and forgetting would send every live match's next
 * move down the slow path at the worst moment.
 */
describe.each(engines)('resuming after a silence on %s', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await migratedDatabase(engine);
  });
  afterAll(() => db.close());

  it('forgets what it holds after an outage credited by another process, not after its own lateness', async () => {
    const mine = new OutageCredit(db, log, unwatched);
    const other = new OutageCredit(db, log, unwatched);
    let forgotten = 0;
    mine.onResume(() => forgotten++);

    await mine.pulse();
    expect(forgotten).toBe(1); // a process starting holds nothing yet; forgetting is harmless

    // Only this process was late: the other kept the service's pulse going.
    await other.pulse();
    await silence();
    await other.pulse();
    expect(await mine.pulse()).toBe(0);
    expect(forgotten).toBe(1);

    // The whole service silent, and a process starting again credits first: this one, silent too, forgets.
    // (Crediting by this process itself, once cut off from the database, is in outage-lateness.test.ts.)
    await db.prisma.$executeRaw`UPDATE service_pulse SET at = now() - interval '5 seconds'`;
    await silence();
    expect(await new OutageCredit(db, log, unwatched).pulse()).toBeGreaterThan(0);
    expect(await mine.pulse()).toBe(0);
    expect(forgotten).toBe(2);
  });
});
