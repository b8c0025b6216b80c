import type { ErrorBody, RoomResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, startApp } from '../testing/live.js';

/**
 * Games against the computer running at once are capped per player and per
 * address (every test request comes from 127.0.0.1, one address). A game
 * stops counting once it has ended, however it ended.
 */
describe.each(engines)('caps on games against the computer on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, { BOT_GAMES_PER_PLAYER: '2', BOT_GAMES_PER_ADDRESS: '3', ENGINE_THREADS: '1' }));
  });
  afterAll(() => app.close());

  const start = (token: string) => api<RoomResponse & ErrorBody>(url, '/api/bot-games', { token, body: { level: 1 } });
  const rooms = () => db.prisma.room.count();

  it('refuses a player past their running games, then the address past its own, and lets one in when a game ends', async () => {
    const [alice, bob, carol] = [await newGuest(url), await newGuest(url), await newGuest(url)];
    const first = await start(alice.token);
    expect(first.status).toBe(201);
    expect((await start(alice.token)).status).toBe(201);
    const before = await rooms();
    expect(await start(alice.token)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_BOT_GAMES' } });
    // Bob has none running, but the address has room for one more only.
    expect((await start(bob.token)).status).toBe(201);
    expect(await start(carol.token)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_BOT_GAMES' } });
    expect(await rooms()).toBe(before + 1);

    // One of Alice's games ends: she, and the address, have a place again.
    await db.prisma.match.update({ where: { id: first.body.matchId }, data: { status: 'ended', endReason: 'abort', endedAt: new Date() } });
    expect((await start(carol.token)).status).toBe(201);
    expect(await start(alice.token)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_BOT_GAMES' } });
  });

  it('lets two starts at once take only the places there are', async () => {
    // The earlier test's games still hold the address's places: end them all.
    await db.prisma.match.updateMany({ where: { status: { not: 'ended' } }, data: { status: 'ended', endReason: 'abort', endedAt: new Date() } });
    const guests = [await newGuest(url), await newGuest(url), await newGuest(url), await newGuest(url), await newGuest(url)];
    const outcomes = await Promise.all(guests.map((guest) => start(guest.token)));
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([201, 201, 201, 429, 429]);
  });
});
