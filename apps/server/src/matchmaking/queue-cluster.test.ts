import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { newGuest, TestClient } from '../testing/live.js';

// Apart from queue.test.ts, whose tests need no process of their own: a file that starts
// server processes runs alone, after the others (vitest.config.ts).
const fastQueue = { QUEUE_TICK_MS: '100', QUEUE_BASE_GAP: '100', QUEUE_GAP_PER_SECOND: '400' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(postgresAvailable)('the queue across two server processes on one PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    cluster = await startCluster(fastQueue);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.stop();
  });

  it('pairs 40 players who join at once into exactly 20 matches, each player in exactly one', async () => {
    const players = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const url = cluster.servers[i % 2 === 0 ? 0 : 1].url;
        const guest = await newGuest(url);
        const c = await TestClient.connect(url, guest.token);
        clients.push(c);
        return { ...guest, c };
      }),
    );
    const acks = await Promise.all(players.map((p) => p.c.request('queue:join', { pool: '5+3' })));
    expect(acks.every((ack) => ack.ok)).toBe(true);
    await Promise.all(players.map((p) => p.c.until(() => p.c.matched !== undefined, 'a pairing', 20_000)));

    const byMatch = new Map<string, string[]>();
    for (const p of players) {
      expect(p.c.queue.filter((q) => q.matched)).toHaveLength(1);
      byMatch.set(p.c.matched!.matchId, [...(byMatch.get(p.c.matched!.matchId) ?? []), p.player.id]);
    }
    expect(byMatch.size).toBe(20);
    expect([...byMatch.values()].every((ids) => ids.length === 2)).toBe(true);

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const seats = await client.query<{ id: string }>('SELECT player0_id AS id FROM match UNION ALL SELECT player1_id FROM match');
      expect(seats.rows.map((r) => r.id).sort()).toEqual(players.map((p) => p.player.id).sort());
      expect((await client.query('SELECT 1 FROM queue_entry')).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('never pairs the next player with one whose process was killed', async () => {
    const [one, two] = cluster.servers;
    const gone = await newGuest(one.url);
    const g = await TestClient.connect(one.url, gone.token);
    clients.push(g);
    expect(await g.request('queue:join', { pool: '3+2' })).toEqual({ ok: true });
    one.child.kill('SIGKILL');
    await one.exited;
    // Longer than an entry stays fresh without its process (3 s at this tick).
    await sleep(3500);

    const [yan, zoe] = await Promise.all([newGuest(two.url), newGuest(two.url)]);
    const y = await TestClient.connect(two.url, yan.token);
    const z = await TestClient.connect(two.url, zoe.token);
    clients.push(y, z);
    expect(await y.request('queue:join', { pool: '3+2' })).toEqual({ ok: true });
    await sleep(1000); // ten ticks: a live entry would have been paired by now
    expect(y.matched).toBeUndefined();
    expect(await z.request('queue:join', { pool: '3+2' })).toEqual({ ok: true });
    await Promise.all([y.until(() => y.matched !== undefined, 'a pairing'), z.until(() => z.matched !== undefined, 'a pairing')]);
    expect(y.matched!.matchId).toBe(z.matched!.matchId);

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      expect((await client.query('SELECT 1 FROM queue_entry WHERE player_id = $1', [gone.player.id])).rowCount).toBe(0);
      expect((await client.query('SELECT 1 FROM match WHERE $1 IN (player0_id, player1_id)', [gone.player.id])).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  }, 60_000);
});
