import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { GuestTokens } from './guest-tokens.js';
import { KNOWN_ACCOUNTS_PER_BROWSER, KnownDevices } from './known-devices.js';
import { ServerKey } from './server-key.js';

// With a configured secret the database is never asked.
const noDatabase = {} as Database;
const SECRET = 'a secret the servers share, 32 characters or more';
const DAY = 24 * 3_600_000;
const devices = new KnownDevices(new ServerKey(noDatabase, SECRET), 30 * DAY);

describe('known devices', () => {
  it('recognise a browser for the account it signed in to, and for no other', async () => {
    const cookie = await devices.remember(undefined, 'owner', null);
    const device = await devices.recognise(cookie, 'owner');
    expect(device).toMatch(/^[\w-]{22}$/);
    expect(await devices.recognise(cookie, 'someone_else')).toBeNull();
    expect(await devices.recognise(undefined, 'owner')).toBeNull();
  });

  it('refuse an entry that was altered, signed with another key, expired, or made for a guest', async () => {
    const cookie = await devices.remember(undefined, 'stranger', null);
    const [body, mac] = cookie.split('.').slice(1);
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString()) as [string, string, number];
    const renamed = Buffer.from(JSON.stringify(['owner', claims[1], claims[2]])).toString('base64url');
    expect(await devices.recognise(`d.${renamed}.${mac}`, 'owner')).toBeNull();
    const otherKey = new KnownDevices(new ServerKey(noDatabase, 'another secret, not the servers one, 32+'), 30 * DAY);
    expect(await devices.recognise(await otherKey.remember(undefined, 'owner', null), 'owner')).toBeNull();
    const now = Date.now();
    const old = await devices.remember(undefined, 'owner', null, now - 31 * DAY);
    expect(await devices.recognise(old, 'owner', now)).toBeNull();
    expect(await devices.recognise(old, 'owner', now - 29 * DAY)).not.toBeNull();
    const guest = await new GuestTokens(noDatabase, { secret: SECRET, ttlMs: DAY }).sign({ id: '7b0c1c1e-8a3e-4b8e-9a57-0d5c2f0e1a11', name: 'owner' });
    expect(await devices.recognise(guest.replace(/^g\./, 'd.'), 'owner')).toBeNull();
  });

  it('keep one device id per account across sign-ins, and the other accounts of the browser up to a few', async () => {
    let cookie = await devices.remember(undefined, 'mother', null);
    const mother = await devices.recognise(cookie, 'mother');
    for (let i = 0; i < KNOWN_ACCOUNTS_PER_BROWSER + 2; i++) cookie = await devices.remember(cookie, `child_${i}`, null);
    cookie = await devices.remember(cookie, 'child_6', await devices.recognise(cookie, 'child_6'));
    expect(cookie.split('~')).toHaveLength(KNOWN_ACCOUNTS_PER_BROWSER);
    expect(await devices.recognise(cookie, 'mother')).toBeNull();
    expect(await devices.recognise(cookie, 'child_2')).not.toBeNull();
    const child = await devices.recognise(cookie, 'child_6');
    expect(await devices.recognise(await devices.remember(cookie, 'child_6', child), 'child_6')).toBe(child);
    expect(mother).not.toBe(child);
    // However much a browser sends, only the first few entries are read.
    expect(await devices.recognise(`${'x~'.repeat(10_000)}${cookie}`, 'child_6')).toBeNull();
  });
});
