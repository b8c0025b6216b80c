import { ErrorCode, dataExport, type DataExport } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { api, newAccount, newGuest, newRoom, scriptedGame, TestClient } from '../testing/live.js';
import { seedPlayedGames } from '../testing/played-games.js';
import { appForSuite } from '../testing/suite-app.js';
import { waitFor } from '../testing/wait-for.js';
import { AccountExport } from './account-export.js';

type Account = Awaited<ReturnType<typeof newAccount>>;

async function download(url: string, token: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/api/account/export`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function collect(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

describe.each(engines)('downloading one’s data (%s)', (engine) => {
  const suite = appForSuite(engine, {}, { RATE_LIMIT_EXPORTS_PER_HOUR: '2', RATE_LIMIT_EXPORTS_PER_ADDRESS_PER_HOUR: '5' });
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let played: string;
  let strangers: string;
  let rated: string;

  /** Alice plays Bob through the sockets and resigns; the rest of what the site can hold about her (and about others, which must stay out) is written as rows. */
  it('is given every table that names the player', async () => {
    [alice, bob, carol] = [await newAccount(suite.url), await newAccount(suite.url), await newAccount(suite.url)];
    const room = await newRoom(suite.url, alice.token, { timeControl: { initialSeconds: 300, incrementSeconds: 2 } });
    played = room.matchId;
    const [a, b] = [await suite.client(alice.token), await suite.client(bob.token)];
    await a.request('room:join', { code: room.code });
    await b.request('room:join', { code: room.code });
    await a.request('opener:choose', { matchId: played, choice: 'rock' });
    let ack = await b.request('opener:choose', { matchId: played, choice: 'scissors' });
    const [first, second] = scriptedGame(room.rules, 0);
    for (const [client, move, id] of [[a, first!, 'a1'], [b, second!, 'b1']] as const) {
      ack = await client.request('move', { matchId: played, moveId: id, version: ack.ok ? ack.version : 0, ...move });
      expect(ack).toMatchObject({ ok: true });
    }
    expect(await a.request('resign', { matchId: played })).toMatchObject({ ok: true });

    const { prisma } = suite.db;
    const template = await prisma.match.findUniqueOrThrow({ where: { id: played } });
    const ratedMatch = await prisma.match.create({
      data: {
        roomId: template.roomId,
        number: 2,
        status: 'ended',
        rules: template.rules!,
        position: template.position!,
        player0Id: bob.player.id,
        player1Id: alice.player.id,
        rated: true,
        winner: 1,
        endReason: 'resign',
        ratedAt: new Date(),
        endedAt: new Date(),
        ratingChanges: [{ before: 1500, after: 1480 }, { before: 1500, after: 1520 }],
      },
    });
    rated = ratedMatch.id;
    strangers = (
      await prisma.match.create({
        data: { roomId: template.roomId, number: 3, rules: template.rules!, position: template.position!, player0Id: bob.player.id, player1Id: carol.player.id },
      })
    ).id;
    // Failed, so that the analysis workers leave it as it is.
    await prisma.matchAnalysis.create({ data: { matchId: ratedMatch.id, status: 'failed', depth: 8, total: 2, requestedById: alice.player.id } });
    await prisma.follow.createMany({
      data: [
        { followerId: alice.player.id, followeeId: bob.player.id },
        { followerId: carol.player.id, followeeId: alice.player.id },
        { followerId: bob.player.id, followeeId: carol.player.id },
      ],
    });
    await prisma.playerBlock.createMany({
      data: [
        { blockerId: alice.player.id, blockedId: carol.player.id },
        { blockerId: bob.player.id, blockedId: alice.player.id },
      ],
    });
    const puzzle = await prisma.puzzle.create({ data: { rules: 'r', position: 'p', line: [], themes: [], eval: 2, gap: 2, source: 'self-play' } });
    await prisma.puzzleAttempt.createMany({
      data: [
        { puzzleId: puzzle.id, playerId: alice.player.id, solved: true, ratingBefore: 1500, ratingAfter: 1530 },
        { puzzleId: puzzle.id, playerId: bob.player.id, solved: false, ratingBefore: 1500, ratingAfter: 1470 },
      ],
    });
    await prisma.puzzleSolver.create({ data: { playerId: alice.player.id, rating: 1530, attempts: 1, solved: 1 } });
    await prisma.challenge.createMany({
      data: [
        { creatorId: alice.player.id, targetId: bob.player.id, rules: template.rules!, address: '198.51.100.7' },
        { creatorId: carol.player.id, targetId: alice.player.id, rules: template.rules!, address: '203.0.113.9' },
      ],
    });
    await prisma.player.update({ where: { id: alice.player.id }, data: { challengesFrom: 'following' } });
    // A second session, ended: both are hers to see, neither's token.
    const login = await api<{ token: string }>(suite.url, '/api/session/login', { body: { username: alice.username, password: alice.password } });
    await api(suite.url, '/api/session/logout', { method: 'POST', token: login.body.token });
  });

  it('is refused when another site asks for it, and costs nothing then', async () => {
    const refused = await download(suite.url, alice.token, { 'sec-fetch-site': 'cross-site' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ code: ErrorCode.CrossSite });
  });

  it('holds what the database holds about the asker, and nothing of anyone else’s', async () => {
    const got = await download(suite.url, alice.token);
    expect(got.status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(got.headers.get('content-disposition')).toContain(`filename="oanquan-${alice.username}-${day}.json"`);
    expect(got.headers.get('content-type')).toMatch(/^application\/json/);
    const file: DataExport = dataExport.parse(JSON.parse(got.text));
    const { prisma } = suite.db;
    const me = alice.player.id;

    const row = await prisma.player.findUniqueOrThrow({ where: { id: me } });
    expect(file.profile).toEqual({
      id: me,
      name: row.name,
      username: alice.username,
      account: true,
      stored: true,
      createdAt: iso(row.createdAt),
      rating: { rating: row.rating, deviation: row.deviation, volatility: row.volatility, ratedGames: row.ratedGames },
      puzzleRating: expect.objectContaining({ rating: 1530, attempts: 1, solved: 1 }),
      settings: { challengesFrom: 'following' },
    });

    const sessions = await prisma.session.findMany({ where: { playerId: me }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(sessions).toHaveLength(2);
    expect(file.sessions).toEqual(
      sessions.map((session) => ({
        id: session.id,
        createdAt: iso(session.createdAt),
        lastSeenAt: iso(session.lastSeenAt),
        expiresAt: iso(session.expiresAt),
        revokedAt: iso(session.revokedAt),
        current: session.revokedAt === null,
      })),
    );
    for (const secret of [...sessions.map((session) => session.tokenHash), alice.token, row.passwordHash!]) expect(got.text).not.toContain(secret);

    const matches = await prisma.match.findMany({
      where: { OR: [{ player0Id: me }, { player1Id: me }] },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { moves: { orderBy: { ply: 'asc' } } },
    });
    expect(file.games.map((game) => game.id)).toEqual(matches.map((match) => match.id));
    const game = file.games.find((each) => each.id === played)!;
    const match = matches.find((each) => each.id === played)!;
    expect(game).toMatchObject({
      seat: 0,
      first: 0,
      status: 'ended',
      timeControl: { initialSeconds: 300, incrementSeconds: 2 },
      players: [{ id: me, name: alice.player.name }, { id: bob.player.id, name: bob.player.name }],
      result: { winner: 1, reason: 'resign' },
      opener: [{ round: 1, choices: ['rock', 'scissors'], winner: 0 }],
    });
    expect(match.moves).toHaveLength(2);
    expect(game.moves).toEqual(
      match.moves.map((move) => expect.objectContaining({ ply: move.ply, square: move.square, dir: move.dir, remainingMs: move.remainingMs, at: iso(move.createdAt) })),
    );
    expect(file.games.find((each) => each.id === rated)).toMatchObject({ seat: 1, ratingChange: { before: 1500, after: 1520 } });
    expect(file.ratingHistory).toEqual([{ matchId: rated, at: expect.any(String), before: 1500, after: 1520 }]);

    expect(file.following).toEqual([{ player: { id: bob.player.id, name: bob.player.name, botLevel: null }, since: expect.any(String) }]);
    expect(file.followers).toEqual({ count: 1 });
    expect(file.blocks.map((block) => block.player.id)).toEqual([carol.player.id]);
    expect(file.puzzleAttempts).toEqual([expect.objectContaining({ solved: true, ratingBefore: 1500, ratingAfter: 1530 })]);
    expect(file.analysisRequests).toEqual([{ matchId: rated, status: 'failed', requestedAt: expect.any(String) }]);
    expect(file.rooms.map((room) => room.code)).toEqual([(await prisma.room.findUniqueOrThrow({ where: { id: match.roomId } })).code]);
    expect(file.challenges).toHaveLength(2);
    expect(file.challenges).toEqual(expect.arrayContaining([
      expect.objectContaining({ direction: 'made', other: expect.objectContaining({ id: bob.player.id }), address: '198.51.100.7' }),
      expect.objectContaining({ direction: 'received', other: expect.objectContaining({ id: carol.player.id }), address: null }),
    ]));
    // Others' rows: a game she did not play, Bob's block of her, Bob's puzzle try, Carol's address.
    for (const theirs of [strangers, '203.0.113.9', 'ratingAfter":1470']) expect(got.text).not.toContain(theirs);
  });

  it('reads the same document a page at a time as all at once', async () => {
    const identity = await suite.app.http.players.identify(alice.token);
    const now = new Date();
    const whole = await collect(new AccountExport(suite.db).document(identity, now));
    const paged = await collect(new AccountExport(suite.db, { rows: 1, games: 1 }).document(identity, now));
    expect(JSON.parse(paged).games).toHaveLength(2);
    expect(paged).toBe(whole);
  });

  it('gives a guest who never sat down a new player’s profile and nothing else', async () => {
    const guest = await newGuest(suite.url);
    const got = await download(suite.url, guest.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toContain(`oanquan-guest-${guest.player.id.slice(0, 8)}-`);
    const file = dataExport.parse(JSON.parse(got.text));
    expect(file.profile).toMatchObject({ id: guest.player.id, name: guest.player.name, stored: false, account: false, username: null });
    expect([file.sessions, file.games, file.following, file.ratingHistory]).toEqual([[], [], [], []]);
  });

  it('is limited per player, then per address, with RATE_LIMITED', async () => {
    expect((await download(suite.url, alice.token)).status).toBe(200);
    const refused = await download(suite.url, alice.token);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toMatchObject({ code: ErrorCode.RateLimited });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Five from this address so far (two of Alice's, the guest's, the refused one): Bob's is the address's last.
    expect((await download(suite.url, bob.token)).status).toBe(200);
    const fromAddress = await download(suite.url, carol.token);
    expect(fromAddress.status).toBe(429);
    expect(JSON.parse(fromAddress.text)).toMatchObject({ code: ErrorCode.RateLimited, message: expect.stringContaining('address') });
  });

  it('refuses a request without a session', async () => {
    const response = await fetch(`${suite.url}/api/account/export`);
    expect(response.status).toBe(401);
  });
});

describe.each(engines)('a download nobody reads (%s)', (engine) => {
  const suite = appForSuite(engine, {}, { EXPORTS_AT_ONCE: '1', EXPORT_STALL_MS: '1000', RATE_LIMIT_EXPORTS_PER_HOUR: '100', RATE_LIMIT_EXPORTS_PER_ADDRESS_PER_HOUR: '100' });

  it('holds its place among those running until it is cut as stalled', { timeout: 120_000 }, async () => {
    // About 15 MB of moves: more than the sockets' buffers hold, so the unread download cannot finish by itself.
    const { me } = await seedPlayedGames(suite.db, 1000, 120);
    const { token } = await suite.app.http.players.sessions.open(me);
    const reader = new AbortController();
    const unread = await fetch(`${suite.url}/api/account/export`, { headers: { authorization: `Bearer ${token}` }, signal: reader.signal });
    expect(unread.status).toBe(200);
    const refused = await download(suite.url, token);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text)).toMatchObject({ code: ErrorCode.Busy });
    await waitFor('the stalled download to be cut', async () => (await download(suite.url, token)).status === 200);
    await expect(unread.text()).rejects.toThrow();
    reader.abort();
  });
});
