import type { ErrorBody, SessionResponse } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { engines } from '../testing/databases.js';
import { postFrom } from '../testing/live.js';
import { appForSuite } from '../testing/suite-app.js';

const PASSWORD = 'long enough';

/** A browser: sends and keeps its cookies, from one address that a trusted proxy reports. */
class Browser {
  private cookies = new Map<string, string>();

  constructor(
    private readonly url: string,
    readonly address: string,
  ) {}

  async signIn(username: string, password: string) {
    const response = await fetch(`${this.url}/api/session/login`, {
      method: 'POST',
      headers: {
        'x-forwarded-for': this.address,
        'content-type': 'application/json',
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: JSON.stringify({ username, password }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return { status: response.status, body: (await response.json()) as ErrorBody, retryAfter: response.headers.get('retry-after') };
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** This browser presenting another's cookie as its own. */
  take(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

describe.each(engines)('a browser known to an account on %s', (engine) => {
  // The wait outlasts the test, so every refusal is one; the strangers' guesses come back to back, no waiting between.
  const server = appForSuite(engine, {}, {
    RATE_LIMIT_GUESTS_PER_HOUR: '1000',
    RATE_LIMIT_READS_PER_MINUTE: '1000',
    RATE_LIMIT_SIGNUPS_PER_HOUR: '100',
    RATE_LIMIT_LOGINS_PER_MINUTE: '1000',
    RATE_LIMIT_LOGINS_FREE_FAILURES_PER_USERNAME: '5',
    RATE_LIMIT_LOGINS_FREE_FAILURES_PER_DEVICE: '3',
    RATE_LIMIT_LOGINS_FIRST_DELAY_MS: '30000',
    TRUST_PROXY: 'loopback',
  });
  const keep = async (from: string, username: string) => {
    const guest = await postFrom<SessionResponse>(server.url, '/api/session', from);
    expect((await postFrom(server.url, '/api/account', from, { username, password: PASSWORD }, guest.body.token)).status).toBe(201);
  };
  let strangers = 0;
  const strangerGuesses = async (username: string) => {
    const guess = await postFrom<ErrorBody>(server.url, '/api/session/login', `198.51.${Math.floor(strangers / 250)}.${strangers % 250}`, { username, password: `guess ${strangers++}` });
    expect(guess.status).toBe(401);
  };

  it("lets the owner in at home after their own typo, however the strangers guess, and nobody else's browser", async () => {
    await keep('192.0.2.1', 'owner_home');
    const home = new Browser(server.url, '192.0.2.1');
    expect((await home.signIn('owner_home', PASSWORD)).status).toBe(200);
    expect(home.cookie('oq_device')).toBeDefined();

    for (let i = 0; i < 12; i++) await strangerGuesses('OWNER_HOME');
    expect((await home.signIn('owner_home', 'long enuogh')).status).toBe(401);
    // Another browser at the same address, which never signed in, makes the same typo: it waits with the username, as before.
    const spare = new Browser(server.url, '192.0.2.1');
    expect((await spare.signIn('owner_home', 'long enuogh')).status).toBe(401);
    const waiting = await spare.signIn('owner_home', PASSWORD);
    expect(waiting).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(Number(waiting.retryAfter)).toBeGreaterThan(60);

    // The report's 14 right passwords in a row, each between two strangers' guesses from new addresses.
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      await strangerGuesses('owner_home');
      statuses.push((await home.signIn('owner_home', PASSWORD)).status);
    }
    expect(statuses).toEqual(Array(14).fill(200));
    // Signing in at home forgave the address its failure on the username, so the other browser there is let in again.
    expect((await spare.signIn('owner_home', PASSWORD)).status).toBe(200);
  });

  it("gives a stranger nothing for a cookie of their own account, an altered one, or another's browser's budget", async () => {
    await keep('192.0.2.2', 'owner_two');
    await keep('203.0.113.2', 'stranger_own');
    for (let i = 0; i < 8; i++) await strangerGuesses('owner_two');
    const stranger = new Browser(server.url, '198.51.200.1');
    expect((await stranger.signIn('stranger_own', PASSWORD)).status).toBe(200);
    expect((await stranger.signIn('owner_two', 'guess')).status).toBe(401);
    expect((await stranger.signIn('owner_two', 'guess again')).status).toBe(429);

    const own = stranger.cookie('oq_device')!;
    const [body, mac] = own.split('.').slice(1);
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString()) as [string, string, number];
    stranger.take('oq_device', `d.${Buffer.from(JSON.stringify(['owner_two', claims[1], claims[2]])).toString('base64url')}.${mac}`);
    expect((await stranger.signIn('owner_two', 'guess three')).status).toBe(429);
  });

  it('makes a known browser that keeps failing wait, alone: the owner elsewhere still signs in', async () => {
    await keep('192.0.2.3', 'owner_three');
    const laptop = new Browser(server.url, '192.0.2.3');
    expect((await laptop.signIn('owner_three', PASSWORD)).status).toBe(200);
    // Three free failures; the fourth makes it wait.
    for (let i = 0; i < 4; i++) expect((await laptop.signIn('owner_three', `wrong ${i}`)).status).toBe(401);
    const refused = await laptop.signIn('owner_three', PASSWORD);
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-ins from this browser/) } });
    expect(Number(refused.retryAfter)).toBeGreaterThan(25);
    // Its failures counted on it alone: the same address, in another browser, signs in.
    expect((await new Browser(server.url, '192.0.2.3').signIn('owner_three', PASSWORD)).status).toBe(200);
  });
});
