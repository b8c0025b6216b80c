import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Counters } from './counters.js';

export interface SignInThrottleSettings {
  /** Failed sign-ins from one address, to any usernames, before each further one makes the address wait. */
  freeFailuresPerAddress: number;
  /** Failed sign-ins to one username, from any addresses, before each further one makes the username wait. */
  freeFailuresPerUsername: number;
  /** Failed sign-ins of a browser known to an account (see KnownDevices), before each further one makes that browser wait for it. */
  freeFailuresPerDevice: number;
  /** The first wait; each further failure doubles it… */
  firstDelayMs: number;
  /** …up to this. */
  maxDelayMs: number;
  /** Failures are forgotten this long after the last one. */
  failuresKeptMs: number;
}

/**
 * Guessing passwords gets slower with every wrong guess, and only wrong
 * guesses count: a right password never costs its owner anything. Past a
 * few free failures, an address waits before it may try again, the wait
 * doubling with each failure; so does a username, against guessers spread
 * over many addresses. While a username waits, an address that has not
 * failed on it may still try once, so its owner signs in from their own
 * address however many strangers guess at it; each of those strangers'
 * addresses gets that one try and then waits with the username.
 *
 * A browser that signed in to the account before (a known device) is
 * counted apart: neither the username's nor the address's waits apply to
 * it, so its owner's own typo at home does not leave them waiting behind
 * the strangers; it fails a few times free, then waits alone, longer with
 * each failure, as an address would.
 */
export class SignInThrottle {
  constructor(
    private readonly counters: Counters,
    private readonly settings: SignInThrottleSettings,
  ) {}

  /** Throws RATE_LIMITED while this address, or this username for this address, must wait. */
  async admit(address: string, username: string): Promise<void> {
    const [addressWait, usernameWait, pairFailures] = await Promise.all([
      this.counters.get(keys.addressWait(address)),
      this.counters.get(keys.usernameWait(username)),
      this.counters.get(keys.pairFailures(address, username)),
    ]);
    if (addressWait.ttlMs > 0) throw refusal('from this address', addressWait.ttlMs);
    if (usernameWait.ttlMs > 0 && pairFailures.value > 0) throw refusal('for this username', usernameWait.ttlMs);
  }

  /** Throws RATE_LIMITED while this known device must wait for its account. */
  async admitDevice(device: string): Promise<void> {
    const wait = await this.counters.get(keys.deviceWait(device));
    if (wait.ttlMs > 0) throw refusal('from this browser', wait.ttlMs);
  }

  async deviceFailed(device: string): Promise<void> {
    const failures = await this.counters.add(keys.deviceFailures(device), this.settings.failuresKeptMs);
    await this.wait(keys.deviceWait(device), failures - this.settings.freeFailuresPerDevice);
  }

  async failed(address: string, username: string): Promise<void> {
    const kept = this.settings.failuresKeptMs;
    const [byAddress, byUsername] = await Promise.all([
      this.counters.add(keys.addressFailures(address), kept),
      this.counters.add(keys.usernameFailures(username), kept),
      this.counters.add(keys.pairFailures(address, username), kept),
    ]);
    await Promise.all([
      this.wait(keys.addressWait(address), byAddress - this.settings.freeFailuresPerAddress),
      this.wait(keys.usernameWait(username), byUsername - this.settings.freeFailuresPerUsername),
    ]);
  }

  /**
   * The address proved it knows this username's password. Only its failures on
   * this username are forgiven, and the known device's it came from: signing
   * in to one's own account must not wipe the failures an address ran up
   * guessing others'.
   */
  async succeeded(address: string, username: string, device: string | null): Promise<void> {
    await Promise.all([
      this.counters.delete(keys.pairFailures(address, username)),
      device ? this.counters.delete(keys.deviceFailures(device)) : undefined,
    ]);
  }

  /** The wait after the failure that is `beyond` past the free ones. */
  delayMs(beyond: number): number {
    return Math.min(this.settings.firstDelayMs * 2 ** Math.min(beyond - 1, 40), this.settings.maxDelayMs);
  }

  private async wait(key: string, beyond: number): Promise<void> {
    if (beyond > 0) await this.counters.set(key, beyond, this.delayMs(beyond));
  }
}

const keys = {
  addressFailures: (address: string) => `sign-in:failures:address:${address}`,
  usernameFailures: (username: string) => `sign-in:failures:username:${username}`,
  // An address never holds a space, so the first one ends it.
  pairFailures: (address: string, username: string) => `sign-in:failures:pair:${address} ${username}`,
  addressWait: (address: string) => `sign-in:wait:address:${address}`,
  usernameWait: (username: string) => `sign-in:wait:username:${username}`,
  deviceFailures: (device: string) => `sign-in:failures:device:${device}`,
  deviceWait: (device: string) => `sign-in:wait:device:${device}`,
};

function refusal(whose: string, waitMs: number): ServiceError {
  const seconds = Math.ceil(waitMs / 1000);
  const after = seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return new ServiceError(ErrorCode.RateLimited, `Too many failed sign-ins ${whose}; try again in ${after}`, 429, seconds);
}
