import { ARENA_PAGE_SIZE, type ArenaView } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { appForSuite } from '../testing/suite-app.js';
import { api, newAccount, newGuest } from '../testing/live.js';

/** A request from an address of the test's choosing (the app trusts loopback's X-Forwarded-For). */
async function from<T>(url: string, address: string, path: string, token?: string, method = 'GET'): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${path}`, { method, headers: { 'x-forwarded-for': address, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: response.status, body: (await response.json()) as T };
}

describe.each(engines)('arena standings read a page at a time, and budgeted on %s', (engine) => {
  const suite = appForSuite(engine, {}, {
    ARENA_TICK_MS: '100',
    ARENA_SCHEDULE: 'off',
    TRUST_PROXY: 'loopback',
    ARENA_READS_PER_MINUTE: '6',
    ARENA_READS_PER_MINUTE_PER_ADDRESS: '10',
    ARENA_ENTRIES_PER_MINUTE: '3',
    ARENA_ENTRIES_PER_MINUTE_PER_ADDRESS: '40',
  });

  /** An arena that starts in an hour: people join it, nobody is paired yet. */
  async function arena() {
    const maker = await newAccount(suite.url);
    const startsAt = new Date(Date.now() + 3600_000).toISOString();
    return (await api<ArenaView>(suite.url, '/api/arenas', { token: maker.token, body: { pool: '3+2', startsAt, minutes: 10 } })).body.code;
  }

  it('answers one page of the standings and the reader’s own line, wherever it ranks', async () => {
    const code = await arena();
    const guests = await Promise.all(
      Array.from({ length: ARENA_PAGE_SIZE + 3 }, async (_, i) => {
        const guest = await newGuest(suite.url);
        // Addresses of their own: the budget of one is not what this test is about.
        const joined = await from<ArenaView>(suite.url, `10.1.0.${i + 1}`, `/api/arenas/${code}/join`, guest.token, 'POST');
        expect(joined.status).toBe(200);
        expect(joined.body.me).toMatchObject({ id: guest.player.id, active: true });
        return guest;
      }),
    );
    const first = await from<ArenaView>(suite.url, '10.2.0.1', `/api/arenas/${code}`, guests[0]!.token);
    expect(first.body).toMatchObject({ page: 1, players: ARENA_PAGE_SIZE + 3 });
    expect(first.body.standings).toHaveLength(ARENA_PAGE_SIZE);
    const second = await from<ArenaView>(suite.url, '10.2.0.2', `/api/arenas/${code}?page=2`, guests[0]!.token);
    expect(second.body.standings.map((s) => s.rank)).toEqual([21, 22, 23]);
    const mine = second.body.me!;
    expect(mine.id).toBe(guests[0]!.player.id);
    expect([...first.body.standings, ...second.body.standings].find((s) => s.id === mine.id)).toEqual(mine);
    // No token: nobody's line. A page out of range is empty; a bad one is refused.
    expect((await from<ArenaView>(suite.url, '10.2.0.3', `/api/arenas/${code}?page=9`)).body).toMatchObject({ page: 9, standings: [], me: null });
    expect(await from(suite.url, '10.2.0.4', `/api/arenas/${code}?page=0`)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  it('refuses reads past a player’s budget, and past an address’s whatever the tokens', async () => {
    const code = await arena();
    const reader = await newGuest(suite.url);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await from(suite.url, '10.3.0.1', `/api/arenas/${code}`, reader.token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // A new guest (free) on the same address: the address's budget of 10 is spent by the 4th.
    const fresh = await newGuest(suite.url);
    const more = [];
    for (let i = 0; i < 4; i++) more.push(await from<{ code: string }>(suite.url, '10.3.0.1', `/api/players/${fresh.player.id}/arenas`, fresh.token));
    expect(more.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(more[3]!.body.code).toBe('RATE_LIMITED');
    // Watching is a read too, of the socket's player.
    const client = await suite.client(reader.token);
    expect(await client.request('arena:watch', { code })).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
  });

  it('refuses joins and pauses past a player’s budget, and changes nothing then', async () => {
    const code = await arena();
    const guest = await newGuest(suite.url);
    const statuses = [];
    for (const action of ['join', 'pause', 'join', 'pause']) statuses.push((await from(suite.url, '10.4.0.1', `/api/arenas/${code}/${action}`, guest.token, 'POST')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const view = await from<ArenaView>(suite.url, '10.4.0.2', `/api/arenas/${code}`, guest.token);
    expect(view.body.me).toMatchObject({ id: guest.player.id, active: true });
  });
});
