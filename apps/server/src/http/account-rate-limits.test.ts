import type { ErrorBody, SessionResponse } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { engines } from '../testing/databases.js';
import { startApp } from '../testing/live.js';

const limits = {
  RATE_LIMIT_GUESTS_PER_HOUR: '1000',
  RATE_LIMIT_READS_PER_MINUTE: '1000',
  RATE_LIMIT_SIGNUPS_PER_HOUR: '2',
  RATE_LIMIT_LOGINS_PER_MINUTE: '3',
  RATE_LIMIT_LOGINS_PER_USERNAME_PER_HOUR: '4',
  TRUST_PROXY: 'loopback',
};

/** A request from the client address a trusted proxy reports. */
async function call<T>(url: string, path: string, from: string, body?: unknown, token?: string) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: {
      'x-forwarded-for': from,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as T };
}

describe.each(engines)('rate limits of accounts on %s', (engine) => {
  let url: string;
  let app: App;
  beforeAll(async () => {
    ({ url, app } = await startApp(engine, {}, limits));
  });
  afterAll(() => app.close());

  const keep = async (from: string, username: string) => {
    const guest = await call<SessionResponse>(url, '/api/session', from);
    return call<ErrorBody>(url, '/api/account', from, { username, password: 'long enough' }, guest.body.token);
  };

  it('limits accounts kept per address, whatever guest asks', async () => {
    expect((await keep('203.0.113.1', 'signup_one')).status).toBe(201);
    expect((await keep('203.0.113.1', 'signup_two')).status).toBe(201);
    expect(await keep('203.0.113.1', 'signup_three')).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await keep('203.0.113.2', 'signup_three')).status).toBe(201);
  });

  it('limits sign-in attempts per address, right password or not', async () => {
    expect((await keep('203.0.113.10', 'address_limited')).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await call<ErrorBody>(url, '/api/session/login', '203.0.113.11', { username: 'address_limited', password: `guess ${i}` })).status).toBe(401);
    }
    const refused = await call<ErrorBody>(url, '/api/session/login', '203.0.113.11', { username: 'address_limited', password: 'long enough' });
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await call(url, '/api/session/login', '203.0.113.12', { username: 'address_limited', password: 'long enough' })).status).toBe(200);
  });

  it('limits sign-in attempts per username from any number of addresses, in any case', async () => {
    expect((await keep('203.0.113.20', 'Guessed_One')).status).toBe(201);
    expect((await keep('203.0.113.21', 'untouched_one')).status).toBe(201);
    for (let i = 0; i < 4; i++) {
      const username = i % 2 ? 'guessed_one' : 'GUESSED_ONE';
      expect((await call(url, '/api/session/login', `198.51.100.${i}`, { username, password: `guess ${i}` })).status).toBe(401);
    }
    const refused = await call<ErrorBody>(url, '/api/session/login', '198.51.100.50', { username: 'Guessed_One', password: 'long enough' });
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many sign-in attempts for this username/) } });
    // The client tells the person when to try again from this, in their own language.
    expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
    expect((await call(url, '/api/session/login', '198.51.100.50', { username: 'untouched_one', password: 'long enough' })).status).toBe(200);
  });
});
