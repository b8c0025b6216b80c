import type { ErrorBody, MeResponse, PlayerProfile, RoomResponse, SessionResponse } from '@oanquan/protocol';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { startApp } from '../testing/live.js';
import { GuestTokens } from './guest-tokens.js';

// A school's worth in this test, past the 30 new guests an hour that once locked an address out;
// the defaults (a few hundred) are the README's.
const PUPILS = 120;
const NEW_PLAYERS_PER_ADDRESS = 100;
const SEATS_PER_ADDRESS = 5;

async function call<T>(url: string, path: string, { method = 'GET', token, body, from }: { method?: string; token?: string; body?: unknown; from: string }) {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'x-forwarded-for': from,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** In batches, so a few hundred people arrive together without one connection each at once. */
async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const done: R[] = [];
  for (let i = 0; i < items.length; i += size) done.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return done;
}

function socketOf(url: string, token: string, from: string) {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token }, extraHeaders: { 'x-forwarded-for': from } });
  const opened = new Promise<{ ok: true } | { ok: false; code: string }>((resolve) => {
    socket.once('connect', () => resolve({ ok: true }));
    socket.once('connect_error', (error: Error & { data?: ErrorBody }) => resolve({ ok: false, code: error.data?.code ?? error.message }));
  });
  return { socket, opened };
}

function alter(token: string, change: (claims: [string, string, number]) => [string, string, number]): string {
  const [prefix, body, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as [string, string, number];
  return `${prefix}.${Buffer.from(JSON.stringify(change(claims))).toString('base64url')}.${signature}`;
}

/** A school behind one address: everyone may be a guest, watch and read for free; what is kept is paid per person and per address. */
describe.each(engines)('guests who cost nothing until they sit down, on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine, {}, {
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR: String(NEW_PLAYERS_PER_ADDRESS),
      RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE: String(SEATS_PER_ADDRESS),
    }));
  }, 120_000);
  afterAll(() => app.close());
  const rows = async () => ({ players: await db.prisma.player.count(), sessions: await db.prisma.session.count() });
  const guest = async (from: string) => {
    const made = await call<SessionResponse>(url, '/api/session', { method: 'POST', from });
    expect(made.status).toBe(201);
    return made.body;
  };

  it('lets a school of guests from one address in, read and watch without a row; up to the budget sit down, the rest are refused by it', async () => {
    const school = '198.51.100.7';
    const host = await guest('198.51.100.200');
    const room = (await call<RoomResponse>(url, '/api/rooms', { method: 'POST', token: host.token, body: {}, from: '198.51.100.200' })).body;
    // Both seats taken, so the pupils who come in only watch.
    const players = [socketOf(url, host.token, '198.51.100.200'), socketOf(url, (await guest('198.51.100.201')).token, '198.51.100.201')];
    for (const { socket } of players) expect(await socket.emitWithAck('room:join', { code: room.code })).toMatchObject({ ok: true, seat: expect.any(Number) });
    const before = await rows();
    const pupils = await inBatches(Array.from({ length: PUPILS }, (_, i) => i), 25, async () => {
      const pupil = await guest(school);
      expect((await call<MeResponse>(url, '/api/me', { token: pupil.token, from: school })).body).toEqual({ player: pupil.player, username: null });
      expect((await call(url, `/api/rooms/${room.code}`, { token: pupil.token, from: school })).status).toBe(200);
      expect((await call(url, `/api/players/${host.player.id}`, { token: pupil.token, from: school })).status).toBe(200);
      return pupil;
    });
    // Watching by socket is free too.
    const watcher = socketOf(url, pupils[0]!.token, school);
    expect(await watcher.opened).toEqual({ ok: true });
    expect(await watcher.socket.emitWithAck('room:join', { code: room.code })).toMatchObject({ ok: true, seat: null });
    for (const { socket } of [watcher, ...players]) socket.disconnect();
    expect(await rows()).toEqual(before);

    // Each makes a room: the first NEW_PLAYERS_PER_ADDRESS get their rows, the others a clear refusal and none.
    const made = await inBatches(pupils, 25, (pupil) => call<RoomResponse | ErrorBody>(url, '/api/rooms', { method: 'POST', token: pupil.token, body: {}, from: school }));
    expect(made.filter((answer) => answer.status === 201)).toHaveLength(NEW_PLAYERS_PER_ADDRESS);
    const refused = made.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(PUPILS - NEW_PLAYERS_PER_ADDRESS);
    for (const answer of refused) expect(answer).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many new players from this address/) } });
    expect((await rows()).players).toBe(before.players + NEW_PLAYERS_PER_ADDRESS);

    // Who sat down kept the id and name of their token.
    const seated = pupils.filter((_, i) => made[i]!.status === 201);
    const stored = await db.prisma.player.findMany({ where: { id: { in: seated.map((pupil) => pupil.player.id) } }, select: { id: true, name: true } });
    expect(new Map(stored.map((row) => [row.id, row.name]))).toEqual(new Map(seated.map((pupil) => [pupil.player.id, pupil.player.name])));
    // Who was refused still reads and watches.
    const left = pupils.find((_, i) => made[i]!.status !== 201)!;
    expect((await call<MeResponse>(url, '/api/me', { token: left.token, from: school })).body.player).toEqual(left.player);
  }, 300_000);

  it('makes the row at a seat taken by socket, with the token’s id and name, and limits seats per address', async () => {
    const café = '203.0.113.50';
    const hosts = await inBatches(Array.from({ length: SEATS_PER_ADDRESS + 1 }, (_, i) => i), 10, async () => {
      const host = await guest('203.0.113.51');
      return (await call<RoomResponse>(url, '/api/rooms', { method: 'POST', token: host.token, body: {}, from: '203.0.113.51' })).body;
    });
    const visitors = await Promise.all(hosts.map(async (room) => ({ room, guest: await guest(café) })));
    const sockets = visitors.map(({ guest: visitor }) => socketOf(url, visitor.token, café));
    try {
      for (const { opened } of sockets) expect(await opened).toEqual({ ok: true });
      const before = await rows();
      const answers = [];
      for (const [i, { room }] of visitors.entries()) answers.push(await sockets[i]!.socket.emitWithAck('room:join', { code: room.code }));
      expect(answers.slice(0, SEATS_PER_ADDRESS).every((answer) => answer.ok && answer.seat === 0)).toBe(true);
      expect(answers[SEATS_PER_ADDRESS]).toMatchObject({ ok: false, code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many seats taken from this address/) });
      expect((await rows()).players).toBe(before.players + SEATS_PER_ADDRESS);
      const first = visitors[0]!.guest.player;
      expect(await db.prisma.player.findUnique({ where: { id: first.id }, select: { id: true, name: true } })).toEqual(first);
      expect(await db.prisma.player.findUnique({ where: { id: visitors[SEATS_PER_ADDRESS]!.guest.player.id } })).toBeNull();
      // Queueing is a seat too.
      expect(await sockets[SEATS_PER_ADDRESS]!.socket.emitWithAck('queue:join', { pool: '3+2' })).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    } finally {
      for (const { socket } of sockets) socket.disconnect();
    }
  }, 120_000);

  it('refuses a forged, altered or expired guest token, by request and by socket', async () => {
    const from = '192.0.2.10';
    const real = await guest(from);
    const impostor = await guest(from);
    const expired = await new GuestTokens(db, { ttlMs: -1000 }).sign(real.player);
    const forged = await new GuestTokens(db, { secret: 'a secret the servers do not share with anyone', ttlMs: 60_000 }).sign(real.player);
    const refused = [
      alter(real.token, ([, name, expiry]) => [impostor.player.id, name, expiry]),
      alter(real.token, ([id, , expiry]) => [id, 'Quan lớn', expiry]),
      alter(real.token, ([id, name, expiry]) => [id, name, expiry + 3600]),
      `${real.token.slice(0, -2)}AA`,
      expired,
      forged,
      'g.garbage',
      'g..',
    ];
    for (const token of refused) {
      expect(await call<ErrorBody>(url, '/api/me', { token, from })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
      expect(await socketOf(url, token, from).opened).toEqual({ ok: false, code: 'UNAUTHORIZED' });
    }
    expect((await call(url, '/api/me', { token: real.token, from })).status).toBe(200);
  });

  it("shows a guest without a row their own profile as a new player's, and writes nothing; anyone else's unknown id is not found", async () => {
    const from = '192.0.2.30';
    const visitor = await guest(from);
    const other = await guest(from);
    const before = await rows();
    const own = await call<PlayerProfile>(url, `/api/players/${visitor.player.id}`, { token: visitor.token, from });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: visitor.player.id, name: visitor.player.name, account: false, rating: { rating: 1500 }, record: { wins: 0, losses: 0, draws: 0 }, recent: [] });
    expect((await call<ErrorBody>(url, `/api/players/${other.player.id}`, { token: visitor.token, from })).body.code).toBe('NOT_FOUND');
    expect((await call<ErrorBody>(url, `/api/players/${visitor.player.id}`, { from })).body.code).toBe('NOT_FOUND');
    expect(await rows()).toEqual(before);
  });

  it('gives a browser that comes back a fresh guest token, as a session moves its expiry with use', async () => {
    const tokens = new GuestTokens(db, { ttlMs: 30 * 24 * 3600 * 1000 });
    const player = { id: crypto.randomUUID(), name: 'Mèo 123' };
    const old = await new GuestTokens(db, { ttlMs: 60_000 }).sign(player);
    const response = await fetch(`${url}/api/me`, { headers: { cookie: `oq_session=${old}`, origin: url, 'sec-fetch-site': 'same-origin' } });
    expect(response.status).toBe(200);
    const fresh = response.headers.getSetCookie()[0]?.match(/^oq_session=([^;]+); .*HttpOnly/)?.[1];
    const claims = await tokens.verify(fresh ?? '');
    expect(claims?.player).toEqual(player);
    expect(claims!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });

  it('turns a guest without a row into an account, which is reached by its session from then on', async () => {
    const from = '192.0.2.20';
    const visitor = await guest(from);
    expect(await db.prisma.player.findUnique({ where: { id: visitor.player.id } })).toBeNull();
    const kept = await call<{ player: { id: string }; token: string }>(url, '/api/account', { method: 'POST', token: visitor.token, body: { username: 'khach_khong_hang', password: 'long enough' }, from });
    expect(kept).toMatchObject({ status: 201, body: { player: { id: visitor.player.id, username: 'khach_khong_hang' }, token: expect.any(String) } });
    expect(await call<MeResponse>(url, '/api/me', { token: kept.body.token, from })).toMatchObject({ status: 200, body: { player: { id: visitor.player.id }, username: 'khach_khong_hang' } });
    // The guest token cannot reach the account: it could never be revoked.
    expect(await call<ErrorBody>(url, '/api/me', { token: visitor.token, from })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });
});
