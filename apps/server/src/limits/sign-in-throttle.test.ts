import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { MemoryCounters } from './counters.js';
import { SignInThrottle, type SignInThrottleSettings } from './sign-in-throttle.js';

const settings: SignInThrottleSettings = {
  freeFailuresPerAddress: 3,
  freeFailuresPerUsername: 5,
  freeFailuresPerDevice: 2,
  firstDelayMs: 1000,
  maxDelayMs: 8000,
  failuresKeptMs: 3_600_000,
};

function throttle() {
  const clock = { now: 0 };
  return { clock, signIns: new SignInThrottle(new MemoryCounters(() => clock.now), settings) };
}

/** The wait a refusal asks for, in seconds, or null when admitted. */
async function waitOf(signIns: SignInThrottle, address: string, username: string): Promise<number | null> {
  try {
    await signIns.admit(address, username);
    return null;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    return error.retryAfterSeconds!;
  }
}

describe('sign-in throttle', () => {
  it('lets an address fail a few times free, then doubles its wait with every failure, up to the cap', async () => {
    const { clock, signIns } = throttle();
    const waits: (number | null)[] = [];
    for (let failure = 1; failure <= 8; failure++) {
      await signIns.failed('198.51.100.1', `user_${failure}`);
      const wait = await waitOf(signIns, '198.51.100.1', 'anyone');
      waits.push(wait);
      clock.now += (wait ?? 0) * 1000;
      expect(await waitOf(signIns, '198.51.100.1', 'anyone')).toBeNull();
    }
    expect(waits).toEqual([null, null, null, 1, 2, 4, 8, 8]);
  });

  it('never counts a right password', async () => {
    const { signIns } = throttle();
    for (let i = 0; i < 50; i++) {
      expect(await waitOf(signIns, '198.51.100.2', 'owner')).toBeNull();
      await signIns.succeeded('198.51.100.2', 'owner', null);
    }
  });

  it('keeps the addresses that failed on a username waiting with it, and lets a fresh address try once', async () => {
    const { signIns } = throttle();
    for (let i = 0; i < 22; i++) await signIns.failed(`203.0.113.${i}`, 'owner');
    for (let i = 0; i < 22; i++) expect(await waitOf(signIns, `203.0.113.${i}`, 'owner')).toBe(8);
    // Each guesser failed once, far below the address's own free failures: its other usernames are not held up.
    expect(await waitOf(signIns, '203.0.113.0', 'someone_else')).toBeNull();
    expect(await waitOf(signIns, '192.0.2.1', 'owner')).toBeNull();
    await signIns.failed('192.0.2.1', 'owner');
    expect(await waitOf(signIns, '192.0.2.1', 'owner')).toBe(8);
  });

  it('forgives an address its failures on a username once it signs in to it, not those on others', async () => {
    const { clock, signIns } = throttle();
    await signIns.failed('192.0.2.5', 'owner');
    await signIns.succeeded('192.0.2.5', 'owner', null);
    for (let i = 0; i < 6; i++) await signIns.failed(`203.0.113.${i}`, 'owner');
    expect(await waitOf(signIns, '192.0.2.5', 'owner')).toBeNull();

    for (const username of ['other', 'third', 'fourth']) await signIns.failed('192.0.2.5', username);
    expect(await waitOf(signIns, '192.0.2.5', 'mine')).toBe(1);
    clock.now += 1000;
    await signIns.succeeded('192.0.2.5', 'mine', null);
    await signIns.failed('192.0.2.5', 'fifth');
    expect(await waitOf(signIns, '192.0.2.5', 'mine')).toBe(2);
  });

  it("counts a known device's failures on it alone, past strangers' waits on the username and the address", async () => {
    const { clock, signIns } = throttle();
    for (let i = 0; i < 22; i++) await signIns.failed(`203.0.113.${i}`, 'owner');
    await signIns.failed('192.0.2.9', 'owner');
    expect(await waitOf(signIns, '192.0.2.9', 'owner')).toBe(8);
    await signIns.admitDevice('home');
    const waits: (number | null)[] = [];
    for (let failure = 1; failure <= 4; failure++) {
      await signIns.deviceFailed('home');
      const wait = await signIns.admitDevice('home').then(
        () => null,
        (error: ServiceError) => error.retryAfterSeconds!,
      );
      waits.push(wait);
      clock.now += (wait ?? 0) * 1000;
    }
    expect(waits).toEqual([null, null, 1, 2]);
    await signIns.admitDevice('elsewhere');
    // Its failures were its own: the username's and the address's counts did not move.
    expect(await waitOf(signIns, '192.0.2.10', 'owner')).toBeNull();
    await signIns.succeeded('192.0.2.9', 'owner', 'home');
    await signIns.deviceFailed('home');
    await signIns.admitDevice('home');
    expect(await waitOf(signIns, '192.0.2.9', 'owner')).toBeNull();
  });

  it('forgets failures once they are old', async () => {
    const { clock, signIns } = throttle();
    for (let i = 0; i < 10; i++) await signIns.failed('198.51.100.3', 'owner');
    clock.now += settings.maxDelayMs;
    await signIns.failed('198.51.100.3', 'owner');
    expect(await waitOf(signIns, '198.51.100.3', 'owner')).toBe(8);
    clock.now += settings.failuresKeptMs;
    await signIns.failed('198.51.100.3', 'owner');
    expect(await waitOf(signIns, '198.51.100.3', 'owner')).toBeNull();
  });
});

describe('memory counters', () => {
  it('sweeps forgotten counters as it writes, so invented keys cannot pile up', async () => {
    const clock = { now: 0 };
    const counters = new MemoryCounters(() => clock.now);
    for (let i = 0; i < 5000; i++) {
      await counters.add(`key ${i}`, 10);
      clock.now += 1;
    }
    expect(counters.size).toBeLessThan(1100);
  });
});
