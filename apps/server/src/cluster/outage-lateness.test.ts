import { privatePostgres } from '@oanquan/testkit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { engines, migratedDatabase } from '../testing/databases.js';
import { OutageCredit } from './outage-credit.js';

const log = pino({ level: 'silent' });
/** No client follows these matches. */
const unwatched = { openerTimeoutMs: 30_000, publish: () => {} };
/** Longer than a silence of the whole service may be before it is an outage (three pulse intervals). */
const lateMs = 4500;

const creditsCounted = async (db: Database) => (await db.prisma.$queryRaw<Array<{ credits: number }>>`SELECT credits FROM service_pulse WHERE id = 1`)[0]?.credits;

/** A late pulse of a process that was up all along is no outage: its players could play. */
describe.each(engines)('a late pulse of a live process on %s', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await migratedDatabase(engine);
  });
  afterAll(() => db.close());

  it('credits nothing when its own event loop was busy', async () => {
    const process = new OutageCredit(db, log, unwatched);
    await process.pulse();
    const credits = await creditsCounted(db);
    const until = Date.now() + lateMs;
    while (Date.now() < until) {
      // Busy: no timer, no pulse, no other work of this process runs meanwhile.
    }
    expect(await process.pulse()).toBe(0);
    expect(await creditsCounted(db)).toBe(credits);
  });

  it('credits nothing when its pulse waited behind a burst of transactions', async () => {
    const process = new OutageCredit(db, log, unwatched);
    await process.pulse();
    const credits = await creditsCounted(db);
    // A transaction holding the pulse's row (on PGlite, its only connection) for longer than an outage takes to be noticed.
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const burst = db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM service_pulse WHERE id = 1 FOR UPDATE`;
        held();
        await new Promise((resolve) => setTimeout(resolve, lateMs));
      },
      { maxWait: 10_000, timeout: 20_000 },
    );
    await holding;
    // Queued behind the burst: it answers late, or gives up waiting; either way the service was up.
    const queued = await process.pulse().catch(() => 0);
    await burst;
    expect(queued).toBe(0);
    expect(await process.pulse()).toBe(0);
    expect(await creditsCounted(db)).toBe(credits);
  });

  it('a process starting after the whole service was silent still credits', async () => {
    await new OutageCredit(db, log, unwatched).pulse();
    // The last pulse of a service whose every process stopped.
    await db.prisma.$executeRaw`UPDATE service_pulse SET at = now() - interval '5 seconds'`;
    expect(await new OutageCredit(db, log, unwatched).pulse()).toBeGreaterThan(3000);
  });
});

describe('a database outage a live process was cut off by', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('is credited once, by the first process back, and every process forgets what it holds', async () => {
    const database = await privatePostgres();
    cleanups.push(database.destroy);
    const open = () => openDatabase({ kind: 'postgresql', url: database.url }, { migrationsDir: paths.migrations });
    const [db, otherDb] = [await open(), await open()];
    cleanups.push(db.close, otherDb.close);
    const mine = new OutageCredit(db, log, unwatched);
    const other = new OutageCredit(otherDb, log, unwatched);
    const forgotten = { mine: 0, other: 0 };
    mine.onResume(() => forgotten.mine++);
    other.onResume(() => forgotten.other++);
    await mine.pulse();
    await other.pulse();
    forgotten.mine = forgotten.other = 0;

    await database.stop();
    const stoppedAt = Date.now();
    // Each process keeps pulsing, and learns it cannot reach the database.
    await expect(mine.pulse()).rejects.toThrow();
    await expect(other.pulse()).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, lateMs - (Date.now() - stoppedAt)));
    await database.start();

    const credited = await mine.pulse();
    expect(credited).toBeGreaterThan(lateMs - 1000 - 250);
    expect(await other.pulse()).toBe(0);
    expect(forgotten).toEqual({ mine: 1, other: 1 });
  }, 60_000);
});
