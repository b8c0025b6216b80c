import type { ErrorBody, RoomResponse, SessionResponse } from '@oanquan/protocol';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, startRedis, type OwnRedis } from '../testing/cluster.js';
import { postgresAvailable } from '../testing/databases.js';
import { postFrom } from '../testing/live.js';

const PASSWORD = 'long enough';

/**
 * Three processes sharing Redis count the limits that protect people as one:
 * a budget is the site's, whichever process the proxy picks. Without Redis,
 * each counts its own.
 */
describe.runIf(postgresAvailable)('limits across processes', () => {
  let redis: OwnRedis;
  let urls: string[];
  let stop: () => Promise<void>;
  let databaseUrl: string;
  beforeAll(async () => {
    redis = await startRedis();
    const cluster = await startCluster({
      REDIS_URL: redis.url,
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_SIGNUPS_PER_HOUR: '2',
      RATE_LIMIT_GUESTS_PER_HOUR: '3',
      RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS: '3',
      RATE_LIMIT_LOGINS_FIRST_DELAY_MS: '600000',
      MAX_SOCKETS_PER_PLAYER: '3',
      MAX_SOCKETS_PER_ADDRESS: '5',
      BOT_GAMES_PER_PLAYER: '2',
      ENGINE_THREADS: '1',
    });
    urls = cluster.servers.map((server) => server.url);
    stop = cluster.stop;
    databaseUrl = cluster.databaseUrl;
  }, 120_000);
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stop?.();
    await redis?.stop();
  });

  const at = (i: number) => urls[i % urls.length]!;
  let guests = 0;
  // Each guest from an address of its own, so that only the keeping is counted against `from`.
  const keep = async (i: number, from: string, username: string) => {
    const guest = await postFrom<SessionResponse>(at(i), '/api/session', `192.0.2.${++guests}`);
    return postFrom<ErrorBody>(at(i), '/api/account', from, { username, password: PASSWORD }, guest.body.token);
  };
  const login = (i: number, from: string, username: string, password: string) => postFrom<ErrorBody>(at(i), '/api/session/login', from, { username, password });

  it('count failed sign-ins from one address on every process together', async () => {
    expect((await keep(0, '203.0.113.1', 'spread_guessed')).status).toBe(201);
    for (let i = 0; i < 4; i++) expect((await login(i, '198.51.100.7', 'spread_guessed', `guess ${i}`)).status).toBe(401);
    for (let i = 0; i < 2; i++) {
      expect(await login(i, '198.51.100.7', 'spread_guessed', PASSWORD)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    }
  });

  it('count accounts kept and guests made per address on every process together', async () => {
    expect((await keep(0, '203.0.113.2', 'kept_one')).status).toBe(201);
    expect((await keep(1, '203.0.113.2', 'kept_two')).status).toBe(201);
    expect(await keep(2, '203.0.113.2', 'kept_three')).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });

    for (let i = 0; i < 3; i++) expect((await postFrom(at(i), '/api/session', '203.0.113.3')).status).toBe(201);
    expect(await postFrom(at(0), '/api/session', '203.0.113.3')).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
  });

  const guest = async (i: number) => (await postFrom<SessionResponse>(at(i), '/api/session', `192.0.2.${++guests}`)).body.token;
  const socketOf = (i: number, token: string, from: string) => {
    const socket = connect(at(i), { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { 'x-forwarded-for': from } });
    sockets.push(socket);
    return socket;
  };
  const opened = (socket: Socket) =>
    new Promise<string | undefined>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(error.data?.code));
    });
  const connectAs = (i: number, token: string, from: string) => opened(socketOf(i, token, from));

  it("count a player's sockets on every process together, and free a place when one closes", async () => {
    const token = await guest(0);
    const first = socketOf(0, token, '198.51.100.20');
    expect(await opened(first)).toBe('connected');
    for (const i of [1, 2]) expect(await connectAs(i, token, '198.51.100.20')).toBe('connected');
    for (const i of [0, 1, 2]) expect(await connectAs(i, token, '198.51.100.20')).toBe('TOO_MANY_CONNECTIONS');
    // Another player is not limited by it.
    expect(await connectAs(0, await guest(0), '198.51.100.20')).toBe('connected');

    first.close();
    await expect.poll(() => connectAs(1, token, '198.51.100.20'), { timeout: 10_000, interval: 200 }).toBe('connected');
  });

  it("count an address's sockets on every process together", async () => {
    const tokens = await Promise.all([guest(0), guest(1), guest(2)]);
    for (let i = 0; i < 5; i++) expect(await connectAs(i, tokens[i % 3]!, '198.51.100.21')).toBe('connected');
    for (const i of [0, 1, 2]) expect(await connectAs(i, tokens[2]!, '198.51.100.21')).toBe('TOO_MANY_CONNECTIONS');
  });

  it("count a player's running games against the computer on every process together", async () => {
    const token = await guest(0);
    const startOn = (i: number) => postFrom<RoomResponse & ErrorBody>(at(i), '/api/bot-games', '198.51.100.30', { level: 1 }, token);
    const started = [await startOn(0), await startOn(1)];
    for (const game of started) expect(game.status).toBe(201);
    for (const i of [2, 0]) expect(await startOn(i)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_BOT_GAMES' } });

    // The game started on the first process ends: the third sees the place free.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await db.query(`UPDATE match SET status = 'ended', end_reason = 'abort', ended_at = now() WHERE id = $1`, [started[0]!.body.matchId]);
    } finally {
      await db.end();
    }
    expect((await startOn(2)).status).toBe(201);
    expect(await startOn(1)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_BOT_GAMES' } });
  });

  it('keep counting on each process while Redis is gone', async () => {
    await redis.stop();
    const from = '198.51.100.9';
    // Each process alone: three free failures on the first, and the second has seen none.
    for (let i = 0; i < 4; i++) expect((await login(0, from, 'nobody_here', `guess ${i}`)).status).toBe(401);
    expect(await login(0, from, 'spread_guessed', PASSWORD)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await login(1, from, 'nobody_here', 'guess 5')).status).toBe(401);
  });
});
