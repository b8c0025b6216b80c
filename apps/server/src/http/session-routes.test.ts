import { SESSION_COOKIE, type AccountResponse, type ErrorBody, type MeResponse, type PlayerProfile, type SessionResponse } from '@oanquan/protocol';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newAccount, newGuest, startApp } from '../testing/live.js';
import { GUEST_NAME_WORDS } from '../players/guest-names.js';

/** A request as a browser sends it: the session in a cookie, the site in Origin and Sec-Fetch-Site. */
async function browser<T>(
  url: string,
  path: string,
  init: { method?: string; cookie?: string; body?: unknown; origin?: string; fetchSite?: string } = {},
): Promise<{ status: number; body: T; cookie: string | undefined; setCookie: string[] }> {
  const response = await fetch(url + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.cookie ? { cookie: `${SESSION_COOKIE}=${init.cookie}` } : {}),
      origin: init.origin ?? url,
      'sec-fetch-site': init.fetchSite ?? 'same-origin',
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const setCookie = response.headers.getSetCookie();
  const session = setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, cookie: session?.split(';')[0]!.split('=')[1], setCookie };
}

/** Connects a socket the way a browser does (cookie, Origin) or a script does (auth.token); resolves with what happened. */
function socketOf(url: string, how: { cookie?: string; token?: string; origin?: string }) {
  const socket = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(how.token ? { auth: { token: how.token } } : {}),
    extraHeaders: { ...(how.cookie ? { cookie: `${SESSION_COOKIE}=${how.cookie}` } : {}), ...(how.origin ? { origin: how.origin } : {}) },
  });
  const opened = new Promise<{ ok: true } | { ok: false; code: string }>((resolve) => {
    socket.once('connect', () => resolve({ ok: true }));
    socket.once('connect_error', (error: Error & { data?: ErrorBody }) => resolve({ ok: false, code: error.data?.code ?? error.message }));
  });
  const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  return { socket, opened, closed };
}

describe.each(engines)('accounts and sessions on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(() => app.close());

  it('gives a browser its session only as an httpOnly, SameSite=Lax cookie, Secure outside localhost', async () => {
    const made = await browser<SessionResponse>(url, '/api/session', { method: 'POST' });
    expect(made.status).toBe(201);
    expect(made.body).not.toHaveProperty('token');
    expect(made.setCookie[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=g\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}; Max-Age=\\d+; Path=/; HttpOnly; SameSite=Lax$`));
    expect((await browser<MeResponse>(url, '/api/me', { cookie: made.cookie })).body).toEqual({ player: made.body.player, username: null });

    const remote = await app.http.inject({ method: 'POST', url: '/api/session', headers: { host: 'oanquan.example' } });
    expect(remote.headers['set-cookie']).toMatch(/; Secure; SameSite=Lax$/);
    expect(remote.headers['set-cookie']).toMatch(/; HttpOnly;/);
    // A script (no Origin, no Sec-Fetch-Site) still gets its token to send as a Bearer token.
    expect((await newGuest(url)).token).toMatch(/^g\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('names a guest in their own language: the lang cookie first, then what the browser asks for', async () => {
    const named = async (headers: Record<string, string>) =>
      (JSON.parse((await app.http.inject({ method: 'POST', url: '/api/session', headers })).body) as SessionResponse).player.name;
    const english = new RegExp(`^(${GUEST_NAME_WORDS.en.join('|')}) \\d{3}$`);
    const vietnamese = new RegExp(`^(${GUEST_NAME_WORDS.vi.join('|')}) \\d{3}$`);
    for (let i = 0; i < 3; i++) expect(await named({ 'accept-language': 'en-GB,en;q=0.9' })).toMatch(english);
    expect(await named({ 'accept-language': 'vi-VN' })).toMatch(vietnamese);
    expect(await named({ 'accept-language': 'en-GB', cookie: 'lang=vi' })).toMatch(vietnamese);
    expect(await named({ 'accept-language': 'vi-VN', cookie: 'lang=en' })).toMatch(english);
  });

  it('turns a guest into an account keeping their matches and rating, then signs them in on a second device', async () => {
    const guest = await browser<SessionResponse>(url, '/api/session', { method: 'POST' });
    const opponent = await newGuest(url);
    // Both have played, so both have their rows.
    await db.prisma.player.createMany({ data: [guest.body.player, opponent.player] });
    const room = await db.prisma.room.create({ data: { code: `kept${engine}`, rules: {}, createdById: guest.body.player.id } });
    await db.prisma.match.create({
      data: { roomId: room.id, number: 1, status: 'ended', rules: {}, position: {}, player0Id: guest.body.player.id, player1Id: opponent.player.id, winner: 0, endReason: 'resign', endedAt: new Date() },
    });
    await db.prisma.player.update({ where: { id: guest.body.player.id }, data: { rating: 1612, ratedGames: 3 } });
    const before = (await api<PlayerProfile>(url, `/api/players/${guest.body.player.id}`)).body;

    const kept = await browser<AccountResponse>(url, '/api/account', { cookie: guest.cookie, body: { username: 'Lan_Anh', password: 'hoa sen trắng' } });
    expect(kept).toMatchObject({ status: 201, body: { player: { id: guest.body.player.id, name: 'Lan_Anh', username: 'Lan_Anh' } } });
    const stored = await db.prisma.player.findUniqueOrThrow({ where: { id: guest.body.player.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored.passwordHash).not.toContain('hoa sen');

    // Another device: no cookie yet; the username is matched without case.
    const other = await browser<AccountResponse>(url, '/api/session/login', { body: { username: 'lan_anh', password: 'hoa sen trắng' } });
    expect(other).toMatchObject({ status: 200, body: { player: { id: guest.body.player.id, username: 'Lan_Anh' } } });
    expect(other.body).not.toHaveProperty('token');
    expect(other.cookie).toBeDefined();
    expect(other.cookie).not.toBe(guest.cookie);
    const after = (await api<PlayerProfile>(url, `/api/players/${guest.body.player.id}`)).body;
    expect({ rating: after.rating, record: after.record, recent: after.recent.map((m) => m.id) }).toEqual({
      rating: before.rating,
      record: before.record,
      recent: before.recent.map((m) => m.id),
    });
    expect(after.rating).toEqual({ rating: 1612, deviation: 350, volatility: 0.06, provisional: true });
    expect(after.record.wins).toBe(1);
    expect(JSON.stringify(after)).not.toMatch(/argon2|passwordHash|usernameKey/);
    expect((await browser<MeResponse>(url, '/api/me', { cookie: other.cookie })).body).toEqual({ player: { id: guest.body.player.id, name: 'Lan_Anh' }, username: 'Lan_Anh' });
    // The first device is still signed in, by the session keeping the account opened; its guest token no longer names anyone.
    expect(kept.cookie).toBeDefined();
    expect((await browser<MeResponse>(url, '/api/me', { cookie: kept.cookie })).status).toBe(200);
    expect((await browser<ErrorBody>(url, '/api/me', { cookie: guest.cookie })).status).toBe(401);
  });

  it('refuses a taken username in any case, a second account, bad usernames and wrong passwords alike', async () => {
    const first = await newAccount(url);
    const second = await newGuest(url);
    const taken = await api<ErrorBody>(url, '/api/account', { token: second.token, body: { username: first.username.toUpperCase(), password: 'long enough' } });
    expect(taken).toMatchObject({ status: 409, body: { code: 'USERNAME_TAKEN' } });
    const again = await api<ErrorBody>(url, '/api/account', { token: first.token, body: { username: 'another_name', password: 'long enough' } });
    expect(again).toMatchObject({ status: 409, body: { code: 'ALREADY_AN_ACCOUNT' } });
    for (const body of [{ username: 'ab', password: 'long enough' }, { username: 'has space', password: 'long enough' }, { username: 'fine_name', password: 'short' }, { username: 'fine_name' }]) {
      expect(await api<ErrorBody>(url, '/api/account', { token: second.token, body })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    }
    expect((await api<MeResponse>(url, '/api/me', { token: second.token })).body.username).toBeNull();

    const wrongPassword = await api<ErrorBody>(url, '/api/session/login', { body: { username: first.username, password: 'not the password' } });
    const unknownUser = await api<ErrorBody>(url, '/api/session/login', { body: { username: 'nobody_here', password: first.password } });
    expect(wrongPassword).toEqual({ status: 401, body: { ok: false, code: 'BAD_CREDENTIALS', message: 'Wrong username or password' } });
    expect(unknownUser).toEqual(wrongPassword);
    const guestPassword = await api<ErrorBody>(url, '/api/account/password', { token: second.token, body: { currentPassword: 'x', newPassword: 'long enough' } });
    expect(guestPassword).toMatchObject({ status: 403, body: { code: 'ACCOUNT_REQUIRED' } });
  });

  it('authenticates the socket handshake with the cookie; signing out everywhere closes and refuses every session', async () => {
    const account = await newAccount(url);
    const laptop = await browser<AccountResponse>(url, '/api/session/login', { body: { username: account.username, password: account.password } });
    const phone = await browser<AccountResponse>(url, '/api/session/login', { body: { username: account.username, password: account.password } });
    const laptopSocket = socketOf(url, { cookie: laptop.cookie, origin: url });
    const scriptSocket = socketOf(url, { token: account.token });
    expect(await laptopSocket.opened).toEqual({ ok: true });
    expect(await scriptSocket.opened).toEqual({ ok: true });
    expect(await socketOf(url, {}).opened).toEqual({ ok: false, code: 'UNAUTHORIZED' });

    expect((await browser(url, '/api/session/logout-all', { method: 'POST', cookie: phone.cookie })).status).toBe(200);
    expect(await laptopSocket.closed).toBe('io server disconnect');
    expect(await scriptSocket.closed).toBe('io server disconnect');
    for (const cookie of [laptop.cookie, phone.cookie]) {
      expect(await socketOf(url, { cookie, origin: url }).opened).toEqual({ ok: false, code: 'UNAUTHORIZED' });
      expect((await browser<ErrorBody>(url, '/api/me', { cookie })).status).toBe(401);
    }
    expect((await api(url, '/api/me', { token: account.token })).status).toBe(401);
  });

  it('signs one session out, clearing its cookie and closing its socket, and leaves the others', async () => {
    const account = await newAccount(url);
    const device = await browser<AccountResponse>(url, '/api/session/login', { body: { username: account.username, password: account.password } });
    const socket = socketOf(url, { cookie: device.cookie });
    expect(await socket.opened).toEqual({ ok: true });
    const out = await browser(url, '/api/session/logout', { method: 'POST', cookie: device.cookie });
    expect(out.status).toBe(200);
    expect(out.setCookie[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$`));
    expect(await socket.closed).toBe('io server disconnect');
    expect((await browser(url, '/api/me', { cookie: device.cookie })).status).toBe(401);
    expect((await api(url, '/api/me', { token: account.token })).status).toBe(200);
    // Signing out again, with a session already ended, still clears the cookie.
    const again = await browser(url, '/api/session/logout', { method: 'POST', cookie: device.cookie });
    expect(again.status).toBe(200);
    expect(again.setCookie[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=; Max-Age=0;`));
  });

  it('changes a password: the old one and every other session stop working, this one goes on', async () => {
    const account = await newAccount(url);
    const other = await api<AccountResponse>(url, '/api/session/login', { body: { username: account.username, password: account.password } });
    const wrong = await api<ErrorBody>(url, '/api/account/password', { token: account.token, body: { currentPassword: 'guessing', newPassword: 'a new password' } });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'BAD_CREDENTIALS' } });
    expect((await api(url, '/api/me', { token: other.body.token })).status).toBe(200);

    const changed = await api(url, '/api/account/password', { token: account.token, body: { currentPassword: account.password, newPassword: 'a new password' } });
    expect(changed).toEqual({ status: 200, body: { ok: true } });
    expect((await api(url, '/api/me', { token: account.token })).status).toBe(200);
    expect((await api(url, '/api/me', { token: other.body.token })).status).toBe(401);
    expect((await api(url, '/api/session/login', { body: { username: account.username, password: account.password } })).status).toBe(401);
    expect((await api(url, '/api/session/login', { body: { username: account.username, password: 'a new password' } })).status).toBe(200);
  });

  it('expires a session unused past its expiry, for requests and sockets alike, and moves the expiry of one in use', async () => {
    const guest = await newAccount(url);
    const row = () => db.prisma.session.findFirstOrThrow({ where: { playerId: guest.player.id } });
    const made = await row();
    expect(made.expiresAt.getTime() - made.createdAt.getTime()).toBe(30 * 24 * 3600 * 1000);

    // Last seen two minutes ago: a use now moves both last-seen and the expiry forward.
    await db.prisma.session.update({ where: { id: made.id }, data: { lastSeenAt: new Date(Date.now() - 120_000), expiresAt: new Date(Date.now() + 60_000) } });
    expect((await api(url, '/api/me', { token: guest.token })).status).toBe(200);
    const touched = await row();
    expect(touched.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 10_000);
    expect(touched.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

    await db.prisma.session.update({ where: { id: made.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await api<ErrorBody>(url, '/api/me', { token: guest.token })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await socketOf(url, { token: guest.token }).opened).toEqual({ ok: false, code: 'UNAUTHORIZED' });
  });

  it('refuses cross-site mutations and socket handshakes, and changes nothing', async () => {
    const guest = await browser<SessionResponse>(url, '/api/session', { method: 'POST' });
    const rooms = () => db.prisma.room.count({ where: { createdById: guest.body.player.id } });
    for (const from of [{ origin: 'https://evil.example', fetchSite: 'cross-site' }, { origin: 'https://evil.example', fetchSite: undefined }, { origin: url, fetchSite: 'same-site' }, { origin: 'null', fetchSite: undefined }]) {
      const refused = await fetch(`${url}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${guest.cookie}`, origin: from.origin, ...(from.fetchSite ? { 'sec-fetch-site': from.fetchSite } : {}) },
        body: '{}',
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as ErrorBody).code).toBe('CROSS_SITE');
    }
    expect((await browser(url, '/api/session/logout-all', { method: 'POST', cookie: guest.cookie, origin: 'https://evil.example', fetchSite: 'cross-site' })).status).toBe(403);
    expect(await rooms()).toBe(0);
    expect(await socketOf(url, { cookie: guest.cookie, origin: 'https://evil.example' }).opened).toEqual({ ok: false, code: 'CROSS_SITE' });
    // Reading is not refused (another site cannot read the answer), and the site itself may write.
    expect((await browser(url, '/api/me', { cookie: guest.cookie, origin: 'https://evil.example', fetchSite: 'cross-site' })).status).toBe(200);
    expect((await browser(url, '/api/rooms', { cookie: guest.cookie, body: {} })).status).toBe(201);
    expect(await rooms()).toBe(1);
  });

  it('trades a token kept in localStorage for the cookie', async () => {
    const old = await newGuest(url);
    const traded = await fetch(`${url}/api/session/cookie`, { method: 'POST', headers: { authorization: `Bearer ${old.token}`, origin: url, 'sec-fetch-site': 'same-origin' } });
    expect(traded.status).toBe(200);
    expect(traded.headers.getSetCookie()[0]).toContain(`${SESSION_COOKIE}=${old.token};`);
    expect(((await traded.json()) as MeResponse).player).toEqual(old.player);
    const forged = await fetch(`${url}/api/session/cookie`, { method: 'POST', headers: { authorization: 'Bearer forged' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.getSetCookie()).toEqual([]);
  });
});
