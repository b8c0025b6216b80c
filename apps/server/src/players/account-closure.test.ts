import {
  DELETED_PLAYER_NAME,
  ErrorCode,
  type AccountResponse,
  type DataExport,
  type ErrorBody,
  type Leaderboard,
  type MatchList,
  type MatchRecord,
  type OkResponse,
  type SessionResponse,
} from '@oanquan/protocol';
import { PRESETS } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import type { Database } from '../db/database.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, newRoom, postFrom, scriptedGame, startApp, TestClient } from '../testing/live.js';

const password = 'correct horse battery';
let made = 0;

/** A guest who kept an account; their guest token too, which must die with the account. */
async function account(url: string, stem = 'closing') {
  const guest = await newGuest(url);
  const username = `${stem}_${process.pid % 10_000}_${++made}`;
  const kept = await api<AccountResponse>(url, '/api/account', { token: guest.token, body: { username, password } });
  if (kept.status !== 201) throw new Error(`account not kept: ${JSON.stringify(kept.body)}`);
  return { id: guest.player.id, username, guestToken: guest.token, token: kept.body.token! };
}

const close = (url: string, token: string, body: unknown = { password, confirm: true }) => api<OkResponse | ErrorBody>(url, '/api/account/close', { token, body });

/** Both seated in a new room of `host`'s, past the opener (seat 0 moves first). */
async function seatedGame(url: string, host: { token: string }, guest: { token: string }) {
  const room = await newRoom(url, host.token);
  const a = await TestClient.connect(url, host.token);
  const b = await TestClient.connect(url, guest.token);
  await a.request('room:join', { code: room.code });
  await b.request('room:join', { code: room.code });
  await a.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
  const opened = await b.request('opener:choose', { matchId: room.matchId, choice: 'scissors' });
  if (!opened.ok) throw new Error(opened.code);
  return { room, a, b, version: opened.version };
}

describe.each(engines)('closing an account on %s', (engine) => {
  let url: string;
  let app: App;
  let db: Database;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    ({ url, app, db } = await startApp(engine));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await app.close();
  });

  it('ends every session and socket, reserves the name, empties the row, and keeps the games for the opponent', async () => {
    const lan = await account(url);
    const minh = await account(url, 'opponent');
    const game = await seatedGame(url, lan, minh);
    clients.push(game.a, game.b);
    let version = game.version;
    const moves = scriptedGame(PRESETS.classic, 0, 5).slice(0, 6);
    for (const [i, move] of moves.entries()) {
      const ack = await (i % 2 === 0 ? game.a : game.b).request('move', { matchId: game.room.matchId, moveId: `m${i}`, version, ...move });
      if (!ack.ok) throw new Error(ack.code);
      version = ack.version;
    }
    expect(await game.b.request('resign', { matchId: game.room.matchId })).toMatchObject({ ok: true });
    // As a rated game would have left it: both ratings moved, and the match says by how much.
    const changes = [{ before: 1500, after: 1512.5 }, { before: 1500, after: 1487.5 }];
    await db.prisma.match.update({ where: { id: game.room.matchId }, data: { ratedAt: new Date(), ratingChanges: changes } });
    await db.prisma.player.update({ where: { id: lan.id }, data: { rating: 1512.5, ratedGames: 1, deviation: 90 } });
    await db.prisma.player.update({ where: { id: minh.id }, data: { rating: 1487.5, ratedGames: 1, deviation: 90 } });
    await db.prisma.follow.create({ data: { followerId: minh.id, followeeId: lan.id } });
    await db.prisma.playerBlock.create({ data: { blockerId: lan.id, blockedId: minh.id } });
    const minhBefore = await db.prisma.player.findUniqueOrThrow({ where: { id: minh.id } });
    const recordBefore = (await api<MatchRecord>(url, `/api/matches/${game.room.matchId}`)).body;
    expect(recordBefore.moves).toHaveLength(moves.length);
    expect((await api<Leaderboard>(url, '/api/leaderboard')).body.players.map((p) => p.id)).toContain(lan.id);

    // A second session of the same account, with its own socket.
    const again = await api<AccountResponse>(url, '/api/session/login', { body: { username: lan.username, password } });
    const second = await TestClient.connect(url, again.body.token!);
    clients.push(second);
    const told = [game.a, second].map((client) => new Promise<string>((resolve) => client.socket.once('disconnect', resolve)));

    // A wrong password, or no confirmation, changes nothing.
    expect(await close(url, lan.token, { password: 'not my password', confirm: true })).toMatchObject({ status: 401, body: { code: ErrorCode.BadCredentials } });
    expect(await close(url, lan.token, { password })).toMatchObject({ status: 400, body: { code: ErrorCode.BadRequest } });
    expect(await close(url, lan.token, { password, confirm: false })).toMatchObject({ status: 400, body: { code: ErrorCode.BadRequest } });
    expect((await api(url, `/api/players/${lan.id}`)).status).toBe(200);
    expect(await db.prisma.session.count({ where: { playerId: lan.id, revokedAt: null } })).toBe(2);
    expect(game.a.socket.connected && second.socket.connected).toBe(true);

    // Two closings at once, from the two sessions: one closes, the other finds it closed.
    const identities = await Promise.all([lan.token, again.body.token!].map((token) => app.http.players.identify(token)));
    const outcomes = await Promise.all(identities.map((identity) => app.http.closures.close(identity, password)));
    expect(outcomes.sort()).toEqual(['already-closed', 'closed']);
    expect(await Promise.all(told)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(game.b.socket.connected).toBe(true);

    // Nothing of theirs answers any more: sessions, the guest token, the password.
    for (const token of [lan.token, again.body.token!, lan.guestToken]) {
      expect(await api<ErrorBody>(url, '/api/me', { token })).toMatchObject({ status: 401, body: { code: ErrorCode.Unauthorized } });
    }
    expect(await close(url, lan.token)).toMatchObject({ status: 401 });
    await expect(TestClient.connect(url, lan.token)).rejects.toThrow();
    expect(await api<ErrorBody>(url, '/api/session/login', { body: { username: lan.username, password } })).toMatchObject({
      status: 401,
      body: { code: ErrorCode.BadCredentials },
    });
    expect(await api<ErrorBody>(url, `/api/players/${lan.id}`)).toMatchObject({ status: 404, body: { code: ErrorCode.AccountClosed } });
    expect((await api<Leaderboard>(url, '/api/leaderboard')).body.players.map((p) => p.id)).not.toContain(lan.id);

    // The name stays taken: as written, in capitals, in look-alike letters, and as a display name.
    const newcomer = await newGuest(url);
    for (const [username, code] of [
      [lan.username, ErrorCode.UsernameTaken],
      [lan.username.toUpperCase(), ErrorCode.UsernameTaken],
      [lan.username.replace('l', 'I'), ErrorCode.UsernameLookalike],
    ] as const) {
      expect(await api<ErrorBody>(url, '/api/account', { token: newcomer.token, body: { username, password } })).toMatchObject({ status: 409, body: { code } });
    }
    expect(await api<ErrorBody>(url, '/api/me', { method: 'PATCH', token: newcomer.token, body: { name: lan.username } })).toMatchObject({
      status: 409,
      body: { code: ErrorCode.NameLooksLikeUsername },
    });
    expect(await api<ErrorBody>(url, '/api/me', { method: 'PATCH', token: newcomer.token, body: { name: 'Deleted  Player' } })).toMatchObject({
      status: 400,
      body: { code: ErrorCode.NameReserved },
    });

    // The row is emptied but for its games and its username's forms.
    const row = await db.prisma.player.findUniqueOrThrow({ where: { id: lan.id } });
    expect(row).toMatchObject({ name: DELETED_PLAYER_NAME, passwordHash: null, username: lan.username, rating: 1500, ratedGames: 0 });
    expect(row.closedAt).toBeInstanceOf(Date);
    expect(await db.prisma.session.count({ where: { playerId: lan.id } })).toBe(0);
    expect(await db.prisma.follow.count({ where: { OR: [{ followerId: lan.id }, { followeeId: lan.id }] } })).toBe(0);
    expect(await db.prisma.playerBlock.count({ where: { OR: [{ blockerId: lan.id }, { blockedId: lan.id }] } })).toBe(0);

    // The opponent keeps the whole game, its result and their rating; the closed seat is "deleted player".
    const record = (await api<MatchRecord>(url, `/api/matches/${game.room.matchId}`)).body;
    expect(record.players.map((p) => p?.name)).toEqual([DELETED_PLAYER_NAME, minhBefore.name]);
    expect(record.moves).toEqual(recordBefore.moves);
    expect(record.result).toEqual(recordBefore.result);
    const history = (await api<MatchList>(url, `/api/matches?player=${minh.id}`)).body.matches;
    expect(history.find((m) => m.id === game.room.matchId)?.players.map((p) => p?.name)).toEqual([DELETED_PLAYER_NAME, minhBefore.name]);
    const file = await fetch(`${url}/api/matches/${game.room.matchId}/record`);
    expect(await file.text()).toContain(DELETED_PLAYER_NAME);
    const exported = await fetch(`${url}/api/account/export`, { headers: { authorization: `Bearer ${minh.token}` } });
    const theirs = ((await exported.json()) as DataExport).games.find((g) => g.id === game.room.matchId)!;
    expect(theirs.players.map((p) => p?.name)).toEqual([DELETED_PLAYER_NAME, minhBefore.name]);
    expect(theirs.moves).toHaveLength(moves.length);
    expect(theirs.ratingChange).toEqual(changes[1]);
    const minhAfter = await db.prisma.player.findUniqueOrThrow({ where: { id: minh.id } });
    expect([minhAfter.rating, minhAfter.deviation, minhAfter.ratedGames]).toEqual([minhBefore.rating, minhBefore.deviation, minhBefore.ratedGames]);
    expect((await db.prisma.match.findUniqueOrThrow({ where: { id: game.room.matchId } })).ratingChanges).toEqual(changes);
  });

  it('refuses while a game of theirs is in play, and closes once it has ended', async () => {
    const lan = await account(url);
    const minh = await account(url, 'opponent');
    const game = await seatedGame(url, minh, lan);
    clients.push(game.a, game.b);
    expect(await close(url, lan.token)).toMatchObject({ status: 409, body: { code: ErrorCode.GameInProgress } });
    expect(await db.prisma.player.findUniqueOrThrow({ where: { id: lan.id } })).toMatchObject({ closedAt: null, name: lan.username });
    expect(game.b.socket.connected).toBe(true);
    expect(await game.b.request('resign', { matchId: game.room.matchId })).toMatchObject({ ok: true });
    expect(await close(url, lan.token)).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('is for accounts: a guest has none to close', async () => {
    const guest: SessionResponse = await newGuest(url);
    expect(await close(url, guest.token)).toMatchObject({ status: 403, body: { code: ErrorCode.AccountRequired } });
  });

  it('is refused from another site', async () => {
    const lan = await account(url);
    const response = await fetch(`${url}/api/account/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${lan.token}`, origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ password, confirm: true }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as ErrorBody).code).toBe(ErrorCode.CrossSite);
    expect(await db.prisma.player.findUniqueOrThrow({ where: { id: lan.id } })).toMatchObject({ closedAt: null });
  });
});

describe.each(engines)('the limits on closing accounts on %s', (engine) => {
  let url: string;
  let app: App;
  beforeAll(async () => {
    ({ url, app } = await startApp(engine, {}, { TRUST_PROXY: 'loopback', RATE_LIMIT_ACCOUNT_CLOSES_PER_HOUR: '2', RATE_LIMIT_ACCOUNT_CLOSES_PER_ADDRESS_PER_HOUR: '3' }));
  });
  afterAll(() => app.close());

  const tryClose = (from: string, token: string, guess: string) => postFrom<ErrorBody | OkResponse>(url, '/api/account/close', from, { password: guess, confirm: true }, token);

  it('counts tries per account and per address, right password or not', async () => {
    const [lan, minh, hoa] = [await account(url), await account(url), await account(url)];
    expect((await tryClose('203.0.113.1', lan.token, 'guess one')).status).toBe(401);
    expect((await tryClose('203.0.113.2', lan.token, 'guess two')).status).toBe(401);
    const third = await tryClose('203.0.113.3', lan.token, password);
    expect(third).toMatchObject({ status: 429, body: { code: ErrorCode.RateLimited } });
    expect((await api(url, '/api/me', { token: lan.token })).status).toBe(200);

    expect((await tryClose('198.51.100.7', minh.token, 'guess one')).status).toBe(401);
    expect((await tryClose('198.51.100.7', minh.token, 'guess two')).status).toBe(401);
    expect((await tryClose('198.51.100.7', hoa.token, 'guess one')).status).toBe(401);
    expect(await tryClose('198.51.100.7', hoa.token, password)).toMatchObject({ status: 429, body: { code: ErrorCode.RateLimited } });
    expect((await api(url, '/api/me', { token: hoa.token })).status).toBe(200);
    // Another address, within the account's own budget: closed.
    expect(await tryClose('198.51.100.8', hoa.token, password)).toMatchObject({ status: 200, body: { ok: true } });
  });
});
