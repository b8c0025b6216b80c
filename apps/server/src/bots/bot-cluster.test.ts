import pg from 'pg';
import { PRESETS } from '@oanquan/rules';
import type { RoomResponse, Seat } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { HumanSide } from '../testing/human-side.js';
import { api, newGuest, TestClient } from '../testing/live.js';

describe.runIf(postgresAvailable)('the computer with two server processes sharing one PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  const clients: TestClient[] = [];

  // Both processes look for games waiting on the computer every 100 ms, so both keep trying to answer the same turns.
  beforeAll(async () => {
    cluster = await startCluster({ BOT_SWEEP_MS: '100', BOT_MOVE_DELAY_MS: '0', BOT_THINK_MS: '20' });
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.stop();
  });

  it('makes exactly one move per turn however many processes try, and the game goes on to its end', async () => {
    const [one, two] = cluster.servers;
    const guest = await newGuest(one.url);
    const rules = { ...PRESETS.classic, plyLimit: 30 };
    const { body: room } = await api<RoomResponse>(two.url, '/api/bot-games', { token: guest.token, body: { level: 2, rules: { options: rules } } });
    const client = await TestClient.connect(one.url, guest.token);
    clients.push(client);
    const joined = await client.request('room:join', { code: room.code });
    if (!joined.ok) throw new Error(joined.code);
    const seat = joined.seat as Seat;
    for (let round = 1; !client.events.some((e) => e.event.type === 'started'); round++) {
      const ack = await client.request('opener:choose', { matchId: room.matchId, choice: 'paper' });
      if (!ack.ok && ack.code !== 'NOT_IN_OPENER') throw new Error(ack.code);
      await client.until(() => client.events.some((e) => (e.event.type === 'opener-round' && e.event.round === round) || e.event.type === 'started'), `round ${round}`);
    }
    // The room's own rules: under the classic ply limit, a game the computer's 30th ply ended would look like the person's turn until `ended` came.
    await new HumanSide(client, room.matchId, seat).playUntilEnd(rules, Infinity, 90_000);

    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const moves = await db.query<{ ply: number; player_id: string }>('SELECT ply, player_id FROM move WHERE match_id = $1 ORDER BY ply', [room.matchId]);
      // The version and the events in one statement: the computer offers a rematch as soon as the game ends, adding an event at any moment.
      const match = await db.query<{ version: number; status: string; events: number[] }>(
        'SELECT m.version, m.status, (SELECT array_agg(e.version ORDER BY e.version) FROM match_event e WHERE e.match_id = m.id) AS events FROM match m WHERE m.id = $1',
        [room.matchId],
      );
      expect(match.rows[0]!.status).toBe('ended');
      // One move per ply, from 1, the two seats taking turns.
      expect(moves.rows.map((m) => m.ply)).toEqual(moves.rows.map((_, i) => i + 1));
      for (let i = 1; i < moves.rows.length; i++) expect(moves.rows[i]!.player_id).not.toBe(moves.rows[i - 1]!.player_id);
      expect(match.rows[0]!.events).toEqual(Array.from({ length: match.rows[0]!.version }, (_, i) => i + 1));
    } finally {
      await db.end();
    }
    const moved = client.events.filter((e) => e.matchId === room.matchId && e.event.type === 'moved');
    expect(new Set(moved.map((e) => e.version)).size).toBe(moved.length);
  }, 150_000);
});
