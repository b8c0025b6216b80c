import type { RoomResponse, Seat } from '@oanquan/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { HumanSide } from '../testing/human-side.js';
import { api, newGuest, startApp, TestClient } from '../testing/live.js';
import { StaleDataCleanup } from './stale-data-cleanup.js';

const DAY = 24 * 3600 * 1000;
const settings = { guestRetentionMs: 30 * DAY, idleRoomMs: DAY, endedSessionMs: 30 * DAY, batchSize: 2 };
const log = pino({ level: 'silent' });
// Nobody joins: the computer's hand wins the toss when the opener lapses, it moves at once, and the person who never came loses by abandonment.
// The person is absent from the game's creation until their join is announced (a presence window after it), so the grace
// leaves the second test's person the time to connect and join on a loaded machine.
const quick = { BOT_THINK_MS: '20', BOT_MOVE_DELAY_MS: '0', BOT_SWEEP_MS: '200', OPENER_TIMEOUT_MS: '200', ABANDON_GRACE_MS: '1500' };

describe.each(engines)('a game against the computer that the computer opened and nobody joined, on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, quick));
  });
  afterAll(async () => {
    await app.close();
  });

  async function ended(matchId: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while ((await db.prisma.match.count({ where: { id: matchId, status: 'ended' } })) === 0) {
      if (Date.now() > deadline) throw new Error(`match ${matchId} did not end`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('goes with its room once stale, though the computer moved, and so does the guest who only started it', async () => {
    const stranger = await newGuest(url);
    const created = await api<RoomResponse>(url, '/api/bot-games', { token: stranger.token, body: { level: 1 } });
    expect(created.status).toBe(201);
    const { matchId, code } = created.body;
    await ended(matchId);
    const over = await db.prisma.match.findUniqueOrThrow({ where: { id: matchId } });
    expect(over.endReason).not.toBe('abort');
    // Only the computer moved.
    const moves = await db.prisma.move.findMany({ where: { matchId }, include: { player: true } });
    expect(moves.length).toBeGreaterThan(0);
    expect(moves.every((move) => move.player.botLevel !== null)).toBe(true);

    const cleanup = new StaleDataCleanup(db, log, settings);
    expect(await cleanup.run(new Date(Date.now() + DAY / 2))).toMatchObject({ rooms: 0 });
    expect(await db.prisma.room.count({ where: { code } })).toBe(1);
    expect(await cleanup.run(new Date(Date.now() + 31 * DAY))).toMatchObject({ ran: true, rooms: 1, guests: 1 });
    expect(await db.prisma.room.count({ where: { code } })).toBe(0);
    expect(await db.prisma.move.count({ where: { matchId } })).toBe(0);
    expect(await db.prisma.matchEvent.count({ where: { matchId } })).toBe(0);
    expect(await db.prisma.player.count({ where: { id: stranger.player.id } })).toBe(0);
  });

  it('stays once the person has moved, even if they left after one move', async () => {
    const person = await newGuest(url);
    const created = await api<RoomResponse>(url, '/api/bot-games', { token: person.token, body: { level: 1 } });
    const { matchId, code, rules } = created.body;
    const client = await TestClient.connect(url, person.token);
    const joined = await client.request('room:join', { code });
    if (!joined.ok) throw new Error(joined.code);
    const human = new HumanSide(client, matchId, joined.seat as Seat, { joined: joined.snapshot });
    expect(await human.playUntilEnd(rules, 1)).toBe(1);
    client.socket.disconnect();
    await ended(matchId);

    const cleanup = new StaleDataCleanup(db, log, settings);
    await cleanup.run(new Date(Date.now() + 31 * DAY));
    expect(await db.prisma.room.count({ where: { code } })).toBe(1);
    expect(await db.prisma.move.count({ where: { matchId, playerId: person.player.id } })).toBe(1);
    expect(await db.prisma.player.count({ where: { id: person.player.id } })).toBe(1);
  });
});
