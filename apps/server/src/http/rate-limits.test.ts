import type { ErrorBody, SessionResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { startApp } from '../testing/live.js';

const limits = {
  RATE_LIMIT_GUESTS_PER_HOUR: '3',
  RATE_LIMIT_ROOMS_PER_MINUTE: '2',
  RATE_LIMIT_RENAMES_PER_MINUTE: '2',
  RATE_LIMIT_READS_PER_MINUTE: '5',
};

interface Call {
  method?: string;
  token?: string;
  body?: unknown;
  /** The client address a trusted proxy reports. */
  from?: string;
}

async function call(url: string, path: string, { method = 'GET', token, body, from }: Call = {}) {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(from ? { 'x-forwarded-for': from } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as unknown };
}

function expectLimited(answer: Awaited<ReturnType<typeof call>>, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ ok: false, code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests; try again in /) } satisfies ErrorBody);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

describe('the production defaults', () => {
  it('are the documented per-person budgets', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      TRUST_PROXY: false,
      RATE_LIMIT_GUESTS_PER_HOUR: 3000,
      RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR: 600,
      RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE: 600,
      RATE_LIMIT_SEATS_PER_MINUTE: 30,
      RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE: 300,
      RATE_LIMIT_ANALYSES_PER_ADDRESS_PER_MINUTE: 300,
      RATE_LIMIT_ROOMS_PER_MINUTE: 6,
      RATE_LIMIT_RENAMES_PER_MINUTE: 5,
      RATE_LIMIT_READS_PER_MINUTE: 300,
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toBe('10.0.0.0/8, loopback');
    expect(() => loadConfig({ RATE_LIMIT_ROOMS_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_ROOMS_PER_MINUTE/);
  });
});

describe.each(engines)('rate limits per person on %s', (engine) => {
  describe('behind a trusted proxy', () => {
    let url: string;
    let app: App;
    let db: Database;
    beforeAll(async () => {
      ({ url, app, db } = await startApp(engine, {}, { ...limits, TRUST_PROXY: 'loopback' }));
    });
    afterAll(() => app.close());

    const guest = async (from: string) => {
      const made = await call(url, '/api/session', { method: 'POST', from });
      expect(made.status).toBe(201);
      return made.body as SessionResponse;
    };

    it('makes only so many guests per address, whatever token the request carries', async () => {
      for (let i = 0; i < 3; i++) await guest('203.0.113.1');
      const players = await db.prisma.player.count();
      expectLimited(await call(url, '/api/session', { method: 'POST', from: '203.0.113.1' }), 3600);
      const { token } = await guest('203.0.113.2');
      expectLimited(await call(url, '/api/session', { method: 'POST', from: '203.0.113.1', token }), 3600);
      expectLimited(await call(url, '/api/session', { method: 'POST', from: '203.0.113.1', token: 'forged' }), 3600);
      // A guest token writes nothing, granted or refused.
      expect(await db.prisma.player.count()).toBe(players);
    });

    it('limits rooms per player, not per address: a second player of the same address has a budget of their own', async () => {
      const alice = await guest('203.0.113.10');
      const bob = await guest('203.0.113.10');
      for (let i = 0; i < 2; i++) expect((await call(url, '/api/rooms', { method: 'POST', token: alice.token, body: {}, from: '203.0.113.10' })).status).toBe(201);
      const rooms = await db.prisma.room.count();
      expectLimited(await call(url, '/api/rooms', { method: 'POST', token: alice.token, body: {}, from: '203.0.113.11' }), 60);
      expect(await db.prisma.room.count()).toBe(rooms);
      expect((await call(url, '/api/rooms', { method: 'POST', token: bob.token, body: {}, from: '203.0.113.10' })).status).toBe(201);
    });

    it('limits renames per player', async () => {
      const carol = await guest('203.0.113.20');
      for (const name of ['Một', 'Hai']) expect((await call(url, '/api/me', { method: 'PATCH', token: carol.token, body: { name }, from: '203.0.113.20' })).status).toBe(200);
      expectLimited(await call(url, '/api/me', { method: 'PATCH', token: carol.token, body: { name: 'Ba' }, from: '203.0.113.21' }), 60);
      expect(await db.prisma.player.findUnique({ where: { id: carol.player.id }, select: { name: true } })).toEqual({ name: 'Hai' });
    });

    it('gives reads one generous budget per person; forged tokens count against their address', async () => {
      const dave = await guest('203.0.113.30');
      for (const path of ['/api/leaderboard', '/api/matches', '/api/rooms/NoSuchRoom1', '/api/leaderboard', '/api/nothing']) {
        expect((await call(url, path, { from: '203.0.113.31' })).status).toBeLessThan(429);
      }
      expectLimited(await call(url, '/api/leaderboard', { from: '203.0.113.31' }), 60);
      expectLimited(await call(url, '/api/leaderboard', { from: '203.0.113.31', token: 'forged-token-1' }), 60);
      expectLimited(await call(url, '/api/leaderboard', { from: '203.0.113.31', token: 'forged-token-2' }), 60);
      // Dave has a budget of his own, even from the exhausted address.
      expect((await call(url, '/api/me', { from: '203.0.113.31', token: dave.token })).status).toBe(200);
      // The health check answers load balancers whatever the budget.
      for (let i = 0; i < 8; i++) expect((await call(url, '/api/health', { from: '203.0.113.31' })).status).toBe(200);
    });
  });

  describe('without a trusted proxy', () => {
    let url: string;
    let app: App;
    beforeAll(async () => {
      ({ url, app } = await startApp(engine, {}, limits));
    });
    afterAll(() => app.close());

    it('ignores X-Forwarded-For: every guest counts against the connection’s address', async () => {
      for (let i = 0; i < 3; i++) expect((await call(url, '/api/session', { method: 'POST', from: `198.51.100.${i}` })).status).toBe(201);
      expectLimited(await call(url, '/api/session', { method: 'POST', from: '198.51.100.99' }), 3600);
    });
  });
});
