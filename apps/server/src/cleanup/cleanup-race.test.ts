import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines, postgresAvailable, secondConnection } from '../testing/databases.js';
import { api, newGuest, newRoom, startApp, TestClient } from '../testing/live.js';
import { waitFor } from '../testing/wait-for.js';
import { StaleDataCleanup } from './stale-data-cleanup.js';

const DAY = 24 * 3600 * 1000;
const settings = { guestRetentionMs: 30 * DAY, idleRoomMs: 30 * DAY, endedSessionMs: 30 * DAY, batchSize: 10 };
const log = pino({ level: 'silent' });

/** A guest past the retention who has a socket open and no seat yet: the cleanup's to take, unless they sit down first. */
async function oldGuestAtTheDoor(url: string, db: Database) {
  const host = await newGuest(url);
  const room = await newRoom(url, host.token);
  const guest = await newGuest(url);
  // A guest's row is made by the first thing they keep: here a name, long ago.
  expect((await api(url, '/api/me', { method: 'PATCH', token: guest.token, body: { name: guest.player.name } })).status).toBe(200);
  await db.prisma.player.update({ where: { id: guest.player.id }, data: { createdAt: new Date(Date.now() - 40 * DAY) } });
  const client = await TestClient.connect(url, guest.token);
  return { room, guest, client };
}

describe.each(engines)('a join racing the guest cleanup on %s', (engine) => {
  let app: App;
  let db: Database;
  let url: string;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    ({ app, db, url } = await startApp(engine));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
  });

  it('refuses a seat to a guest the cleanup took after their socket opened, with a clear code, and changes nothing', async () => {
    const { room, client } = await oldGuestAtTheDoor(url, db);
    clients.push(client);
    expect(await new StaleDataCleanup(db, log, settings).run()).toMatchObject({ ran: true, guests: 1 });

    const ack = await client.request('room:join', { code: room.code });
    expect(ack).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    const match = await db.prisma.match.findUniqueOrThrow({ where: { id: room.matchId } });
    expect([match.player0Id, match.player1Id, match.version]).toEqual([null, null, 0]);
    // The queue is a seat too.
    expect(await client.request('queue:join', { pool: '3+2' })).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect(await db.prisma.queueEntry.count()).toBe(0);
  });
});

// Two connections at once: only PostgreSQL can hold a join half-way while the cleanup runs.
describe.runIf(postgresAvailable)('a join half-way through while the guest cleanup runs on PostgreSQL', () => {
  let app: App;
  let db: Database;
  let url: string;
  let other: pg.Client;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    ({ app, db, url } = await startApp('postgresql'));
    other = await secondConnection(db);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await other?.end();
    await app?.close();
  });

  it('lets the join win: the guest keeps the seat, and the cleanup neither waits for it nor fails', async () => {
    const { room, guest, client } = await oldGuestAtTheDoor(url, db);
    clients.push(client);
    // The join's event cannot be written while this transaction holds its key: the join stops there, seat taken but not
    // committed. Without the foreign key's check this insert leaves the match row unlocked, so the join gets that far.
    await other.query(`SET session_replication_role = replica`);
    await other.query('BEGIN');
    await other.query(`INSERT INTO match_event (match_id, version, payload) VALUES ($1, 1, '{}')`, [room.matchId]);
    const join = client.request('room:join', { code: room.code });
    await waitFor('the join to wait on the held lock', async () => (await other.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rowCount === 1);

    const cleanup = new StaleDataCleanup(db, log, settings).run().then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ error }),
    );
    // Either the cleanup settles (it skipped the guest) or it stands waiting behind the join as well.
    await waitFor(
      'the cleanup to settle or wait on the lock too',
      async () =>
        (await Promise.race([cleanup.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50))])) ||
        (await other.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rowCount === 2,
      { everyMs: 50 },
    );
    await other.query('ROLLBACK');

    expect(await join).toMatchObject({ ok: true, seat: 0 });
    expect(await cleanup).toEqual({ outcome: { ran: true, rooms: 0, guests: 0, sessions: 0 } });
    expect(await db.prisma.player.count({ where: { id: guest.player.id } })).toBe(1);
    expect((await db.prisma.match.findUniqueOrThrow({ where: { id: room.matchId } })).player0Id).toBe(guest.player.id);
  });
});
