import type { RoomResponse } from '@oanquan/protocol';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, startApp } from '../testing/live.js';
import { StaleDataCleanup } from './stale-data-cleanup.js';

const DAY = 24 * 3600 * 1000;
const settings = { guestRetentionMs: 30 * DAY, idleRoomMs: DAY, endedSessionMs: 30 * DAY, batchSize: 2 };
const log = pino({ level: 'silent' });
// The computer takes longer over its first move than the first move may take, so every game nobody joined is aborted.
const lapsing = { BOT_THINK_MS: '20', BOT_MOVE_DELAY_MS: '3000', BOT_SWEEP_MS: '200', OPENER_TIMEOUT_MS: '200', FIRST_MOVE_TIMEOUT_MS: '300' };

describe.each(engines)('games against the computer that nobody joined, on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, lapsing));
  });
  afterAll(async () => {
    await app.close();
  });

  it('go with their rooms, events and opener rounds once stale, and so do the guests who only started them', async () => {
    const strangers = await Promise.all([newGuest(url), newGuest(url), newGuest(url)]);
    const rooms: RoomResponse[] = [];
    for (const stranger of strangers) {
      const created = await api<RoomResponse>(url, '/api/bot-games', { token: stranger.token, body: { level: 1 } });
      expect(created.status).toBe(201);
      rooms.push(created.body);
    }
    const matchIds = rooms.map((room) => room.matchId);
    // The computer's hand, the opener lapsing in its favour, then the first move lapsing: started, then aborted.
    const deadline = Date.now() + 15_000;
    while ((await db.prisma.match.count({ where: { id: { in: matchIds }, endReason: 'abort' } })) < matchIds.length) {
      if (Date.now() > deadline) throw new Error('the unplayed games were not aborted');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const aborted = await db.prisma.match.findMany({ where: { id: { in: matchIds } } });
    expect(aborted.every((match) => match.startedAt !== null)).toBe(true);
    expect(await db.prisma.openerRound.count({ where: { matchId: { in: matchIds } } })).toBeGreaterThan(0);
    const computers = await db.prisma.player.count({ where: { botLevel: { not: null } } });

    const cleanup = new StaleDataCleanup(db, log, settings);
    // Not yet stale: kept.
    expect(await cleanup.run(new Date(Date.now() + DAY / 2))).toMatchObject({ rooms: 0, guests: 0 });
    expect(await db.prisma.room.count({ where: { code: { in: rooms.map((room) => room.code) } } })).toBe(3);

    // Past the idle-room age the games go, and past the guests' retention those who only started them.
    expect(await cleanup.run(new Date(Date.now() + 31 * DAY))).toMatchObject({ ran: true, rooms: 3, guests: 3 });
    expect(await db.prisma.room.count({ where: { code: { in: rooms.map((room) => room.code) } } })).toBe(0);
    expect(await db.prisma.match.count({ where: { id: { in: matchIds } } })).toBe(0);
    expect(await db.prisma.matchEvent.count({ where: { matchId: { in: matchIds } } })).toBe(0);
    expect(await db.prisma.openerRound.count({ where: { matchId: { in: matchIds } } })).toBe(0);
    expect(await db.prisma.player.count({ where: { id: { in: strangers.map((s) => s.player.id) } } })).toBe(0);
    // The computer is no guest.
    expect(await db.prisma.player.count({ where: { botLevel: { not: null } } })).toBe(computers);
  });
});
