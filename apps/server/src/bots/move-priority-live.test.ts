import { PRESETS } from '@oanquan/rules';
import type { RoomResponse, Seat } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { HumanSide } from '../testing/human-side.js';
import { api, newGuest, openedGame, scriptedGame, startApp, TestClient } from '../testing/live.js';

/**
 * A person's moves against the computer beyond their address's rate (here
 * one a second) wait behind people's moves in a yielding lane: they are still
 * all taken, in order, and recorded with the computer's replies; moves
 * between people never wait there.
 */
describe.each(engines)('moves against the computer beyond their rate on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, { BOT_THINK_MS: '50', BOT_MOVE_DELAY_MS: '0', BOT_MOVES_PER_ADDRESS_PER_SECOND: '1', ENGINE_THREADS: '1' }));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app.close();
  });

  it('takes them all, in their turn, and leaves people’s moves alone', async () => {
    const guest = await newGuest(url);
    const { body: room } = await api<RoomResponse>(url, '/api/bot-games', { token: guest.token, body: { level: 1 } });
    const client = await TestClient.connect(url, guest.token);
    clients.push(client);
    const joined = await client.request('room:join', { code: room.code });
    if (!joined.ok) throw new Error(joined.code);
    for (let round = 1; !client.events.some((e) => e.event.type === 'started'); round++) {
      await client.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
      await client.until(() => client.events.some((e) => (e.event.type === 'opener-round' && e.event.round === round) || e.event.type === 'started'), 'the opener');
    }
    const human = new HumanSide(client, room.matchId, joined.seat as Seat, { seed: 3, joined: joined.snapshot });
    // Played at once, one after the other: beyond one a second, so most wait in the lane.
    const made = await human.playUntilEnd(PRESETS.classic, 6);
    expect(made).toBeGreaterThanOrEqual(1);
    expect(app.http.movePriority.deferred).toBeGreaterThanOrEqual(made - 2);
    const stored = await db.prisma.move.findMany({ where: { matchId: room.matchId }, orderBy: { ply: 'asc' }, select: { ply: true } });
    expect(stored.map((m) => m.ply)).toEqual(Array.from({ length: stored.length }, (_, i) => i + 1));
    expect(stored.length).toBeGreaterThanOrEqual(2 * made - 1);

    // Two people's moves, as fast as they come: none waits in the lane.
    const deferred = app.http.movePriority.deferred;
    const { room: peopleRoom, a, b, version: openedAt } = await openedGame([url, url]);
    clients.push(a, b);
    let version = openedAt;
    for (const [i, move] of scriptedGame(PRESETS.classic, 0, 5).slice(0, 6).entries()) {
      const ack = await (i % 2 === 0 ? a : b).request('move', { matchId: peopleRoom.matchId, moveId: `m${i}`, version, ...move });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
    }
    expect(app.http.movePriority.deferred).toBe(deferred);
    expect(app.http.movePriority.waiting).toBe(0);
  });
});
