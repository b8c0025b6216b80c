import type { ErrorBody, SessionResponse } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines, type EngineName } from '../testing/databases.js';
import { postFrom } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

const limits = {
  RATE_LIMIT_GUESTS_PER_HOUR: '1000',
  RATE_LIMIT_READS_PER_MINUTE: '1000',
  RATE_LIMIT_SIGNUPS_PER_HOUR: '2',
  RATE_LIMIT_LOGINS_PER_MINUTE: '3',
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_ADDRESS: '2',
  RATE_LIMIT_LOGINS_FREE_FAILURES_PER_USERNAME: '4',
  // Longer than any request takes on a loaded machine, so that a wait is seen before it lapses.
  RATE_LIMIT_LOGINS_FIRST_DELAY_MS: '30000',
  TRUST_PROXY: 'loopback',
};

/** A server of its own with these limits, and its callers. */
function serverWith(engine: EngineName, env: Record<string, string>) {
  const server = appForSuite(engine, {}, env);
  return {
    async keep(from: string, username: string) {
      const guest = await postFrom<SessionResponse>(server.url, '/api/session', from);
      return postFrom<ErrorBody>(server.url, '/api/account', from, { username, password: 'long enough' }, guest.body.token);
    },
    login: (from: string, username: string, password: string) => postFrom<ErrorBody>(server.url, '/api/session/login', from, { username, password }),
  };
}

describe.each(engines)('rate limits of accounts on %s', (engine) => {
  const { keep, login } = serverWith(engine, limits);

  it('limits accounts kept per address, whatever guest asks', async () => {
    expect((await keep('203.0.113.1', 'signup_one')).status).toBe(201);
    expect((await keep('203.0.113.1', 'signup_two')).status).toBe(201);
    expect(await keep('203.0.113.1', 'signup_three')).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await keep('203.0.113.2', 'signup_three')).status).toBe(201);
  });

  it('limits sign-in attempts per address per minute, right password or not', async () => {
    expect((await keep('203.0.113.10', 'address_limited')).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await login('203.0.113.11', 'address_limited', 'long enough')).status).toBe(200);
    }
    const refused = await login('203.0.113.11', 'address_limited', 'long enough');
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await login('203.0.113.12', 'address_limited', 'long enough')).status).toBe(200);
  });

  it('lets the owner in with the right password from a fresh address however many addresses guessed, in any case', async () => {
    expect((await keep('203.0.113.20', 'Guessed_One')).status).toBe(201);
    for (let i = 0; i < 22; i++) {
      const username = i % 2 ? 'guessed_one' : 'GUESSED_ONE';
      expect((await login(`198.51.100.${i}`, username, `guess ${i}`)).status).toBe(401);
    }
    expect((await login('198.51.100.50', 'Guessed_One', 'long enough')).status).toBe(200);
    expect((await login('198.51.100.50', 'Guessed_One', 'long enough')).status).toBe(200);
  });

  it('slows a guesser spread over many addresses: each address that failed waits with the username', async () => {
    expect((await keep('203.0.113.30', 'guessed_two')).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await login(`192.0.2.${i}`, 'guessed_two', `guess ${i}`)).status).toBe(401);
    const refused = await login('192.0.2.0', 'guessed_two', 'long enough');
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-ins for this username; try again in/) } });
    expect(Number(refused.retryAfter)).toBeGreaterThan(25);
    // A fresh address gets one guess, then waits too, and longer: the username's wait grew with that failure.
    expect((await login('192.0.2.100', 'guessed_two', 'guess 100')).status).toBe(401);
    const after = await login('192.0.2.100', 'guessed_two', 'guess 101');
    expect(after.status).toBe(429);
    expect(Number(after.retryAfter)).toBeGreaterThan(Number(refused.retryAfter));
  });
});

describe.each(engines)('waits after failed sign-ins on %s', (engine) => {
  // Waiting out a wait takes more attempts than a minute's budget allows, which is not what this shows.
  const { keep, login } = serverWith(engine, { ...limits, RATE_LIMIT_LOGINS_PER_MINUTE: '1000', RATE_LIMIT_LOGINS_FIRST_DELAY_MS: '2000' });

  it('makes an address that keeps failing wait longer after every failure', async () => {
    expect((await keep('203.0.113.40', 'address_guessed')).status).toBe(201);
    const from = '192.0.2.200';
    const waits: number[] = [];
    for (let failure = 0; failure < 4; failure++) {
      expect((await login(from, `nobody_${failure}`, 'wrong')).status).toBe(401);
      const refused = await login(from, 'address_guessed', 'long enough');
      if (failure < 2) {
        expect(refused.status).toBe(200);
        continue;
      }
      expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-ins from this address/) } });
      waits.push(Number(refused.retryAfter));
      await expect.poll(async () => (await login(from, 'address_guessed', 'long enough')).status, { timeout: 20_000, interval: 250 }).toBe(200);
    }
    expect(waits).toEqual([2, 4]);
  });
});
