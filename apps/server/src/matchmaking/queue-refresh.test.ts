import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { postgresAvailable, secondConnection } from '../testing/databases.js';
import { newAccount, startApp, TestClient } from '../testing/live.js';
import { waitFor } from '../testing/wait-for.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two connections at once: only PostgreSQL can hold a tick's refresh half-way while someone joins.
describe.runIf(postgresAvailable)('a join that lands while a queue tick refreshes the waiting, on PostgreSQL', () => {
  let app: App;
  let db: Database;
  let url: string;
  let other: pg.Client;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    ({ app, db, url } = await startApp('postgresql', {}, { QUEUE_TICK_MS: '100' }));
    other = await secondConnection(db);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await other?.end();
    await app?.close();
  });

  async function waiting() {
    const account = await newAccount(url);
    const client = await TestClient.connect(url, account.token);
    clients.push(client);
    return { ...account, client };
  }

  it('keeps the newcomer waiting: their entry is refreshed by later ticks and outlives the staleness bound', async () => {
    const first = await waiting();
    const second = await waiting();
    // Different pools, so nobody is paired and only the refresh keeps the entries.
    expect(await first.client.request('queue:join', { pool: '10+5' })).toEqual({ ok: true });
    // The first entry's row is held, so the next tick's refresh (which lists this process's waiting connections) stops on it.
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM queue_entry WHERE player_id = $1 FOR UPDATE', [first.player.id]);
    // Inside a transaction the statistics views keep their first reading unless cleared.
    await waitFor('a tick to wait on the held row', async () =>
      (await other.query('SELECT pg_stat_clear_snapshot()')) &&
      (await other.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%UPDATE queue_entry SET seen_at%'`)).rowCount === 1,
    );
    // The second player joins while that refresh, which did not list them, is under way.
    expect(await second.client.request('queue:join', { pool: '3+2' })).toEqual({ ok: true });
    await other.query('COMMIT');
    // Past the staleness bound (3 s): an entry no tick refreshes is taken for a gone process's and dropped.
    await sleep(4000);
    const entries = await db.prisma.queueEntry.findMany({ select: { playerId: true } });
    expect(entries.map((entry) => entry.playerId).sort()).toEqual([first.player.id, second.player.id].sort());
    // And both are still told they wait.
    const statusesBefore = second.client.queue.length;
    await second.client.until(() => second.client.queue.length > statusesBefore, 'a status for the newcomer');
  });
});
