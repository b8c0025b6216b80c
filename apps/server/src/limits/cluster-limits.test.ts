import type { ErrorBody, SessionResponse } from '@oanquan/protocol';
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
  beforeAll(async () => {
    redis = await startRedis();
    const cluster = await startCluster({
      REDIS_URL: redis.url,
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_SIGNUPS_PER_HOUR: '2',
      RATE_LIMIT_GUESTS_PER_HOUR: '3',
      RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS: '3',
      RATE_LIMIT_LOGINS_FIRST_DELAY_MS: '600000',
    });
    urls = cluster.servers.map((server) => server.url);
    stop = cluster.stop;
  }, 120_000);
  afterAll(async () => {
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

  it('keep counting on each process while Redis is gone', async () => {
    await redis.stop();
    const from = '198.51.100.9';
    // Each process alone: three free failures on the first, and the second has seen none.
    for (let i = 0; i < 4; i++) expect((await login(0, from, 'nobody_here', `guess ${i}`)).status).toBe(401);
    expect(await login(0, from, 'spread_guessed', PASSWORD)).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await login(1, from, 'nobody_here', 'guess 5')).status).toBe(401);
  });
});
