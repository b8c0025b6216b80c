import type { AccountResponse, ErrorBody } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, newGuest, startApp, TestClient } from '../testing/live.js';

const fastQueue = { QUEUE_TICK_MS: '50', QUEUE_BASE_GAP: '100000' };

/** Rated play needs an account: rated entries pair only with rated ones, and guests play casual. */
describe.each(engines)('rated pairing on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, fastQueue));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app.close();
  });

  async function connected<T extends { token: string }>(made: Promise<T>): Promise<T & { c: TestClient }> {
    const who = await made;
    const c = await TestClient.connect(url, who.token);
    clients.push(c);
    return { ...who, c };
  }
  const ratedRoom = async (c: TestClient) => (await api<{ rated: boolean }>(url, `/api/rooms/${c.matched!.roomCode}`)).body.rated;
  const queued = (playerId: string) => db.prisma.queueEntry.findUnique({ where: { playerId }, select: { rated: true } });

  it('refuses a guest who asks for a rated game, and queues nothing', async () => {
    const guest = await connected(newGuest(url));
    const refused = (await guest.c.request('queue:join', { pool: '3+2', rated: true })) as ErrorBody;
    expect(refused).toMatchObject({ ok: false, code: 'ACCOUNT_REQUIRED' });
    expect(await queued(guest.player.id)).toBeNull();
  });

  it('pairs accounts with accounts for rated games and guests with guests for casual ones, never across', async () => {
    const account = await connected(newAccount(url));
    const guest = await connected(newGuest(url));
    await account.c.request('queue:join', { pool: '5+3' });
    await guest.c.request('queue:join', { pool: '5+3' });
    expect(await queued(account.player.id)).toEqual({ rated: true });
    expect(await queued(guest.player.id)).toEqual({ rated: false });
    // Several ticks with only these two waiting, whose ratings are within the gap: no pairing.
    await account.c.until(() => account.c.queue.filter((q) => q.status).length >= 2, 'statuses while waiting');
    expect(account.c.matched).toBeUndefined();
    expect(guest.c.matched).toBeUndefined();

    const otherAccount = await connected(newAccount(url));
    const otherGuest = await connected(newGuest(url));
    await otherAccount.c.request('queue:join', { pool: '5+3' });
    await otherGuest.c.request('queue:join', { pool: '5+3' });
    await Promise.all([account, guest, otherAccount, otherGuest].map(({ c }) => c.until(() => c.matched !== undefined, 'the pairing')));
    expect(account.c.matched).toEqual(otherAccount.c.matched);
    expect(guest.c.matched).toEqual(otherGuest.c.matched);
    expect(await ratedRoom(account.c)).toBe(true);
    expect(await ratedRoom(guest.c)).toBe(false);
  });

  it('lets an account choose a casual game, and a guest who keeps their account play rated at once', async () => {
    const casual = await connected(newAccount(url));
    const guest = await connected(newGuest(url));
    await casual.c.request('queue:join', { pool: '10+5', rated: false });
    await guest.c.request('queue:join', { pool: '10+5' });
    await Promise.all([casual, guest].map(({ c }) => c.until(() => c.matched !== undefined, 'the casual pairing')));
    expect(casual.c.matched).toEqual(guest.c.matched);
    expect(await ratedRoom(casual.c)).toBe(false);

    const keeper = await connected(newGuest(url));
    const kept = await api<AccountResponse>(url, '/api/account', { token: keeper.token, body: { username: `keeper_${engine}`, password: 'long enough' } });
    expect(kept.status).toBe(201);
    const rival = await connected(newAccount(url));
    expect(await keeper.c.request('queue:join', { pool: '10+5' })).toEqual({ ok: true });
    await rival.c.request('queue:join', { pool: '10+5' });
    await Promise.all([keeper, rival].map(({ c }) => c.until(() => c.matched !== undefined, 'the rated pairing')));
    expect(keeper.c.matched).toEqual(rival.c.matched);
    expect(await ratedRoom(keeper.c)).toBe(true);
  });
});
