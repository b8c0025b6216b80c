import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ServerKey } from './server-key.js';

const PREFIX = 'd.';
const SEPARATOR = '~';

/** Accounts one browser is remembered for; a family's shared computer has a few, nobody has more. */
export const KNOWN_ACCOUNTS_PER_BROWSER = 5;

/** What one entry carries: the username's key, the device's id for that account, until when (seconds since the epoch). */
const claims = z.tuple([z.string().min(1).max(100), z.string().regex(/^[\w-]{22}$/), z.number().int().positive()]);

type Entry = { token: string; username: string; device: string };

/**
 * The browsers that have signed in to an account before (OWASP's device
 * cookies). A successful sign-in leaves the browser a signed entry naming
 * the account (by its username's key) and a random device id; the cookie
 * holds one such entry per account signed in to there. Presented again
 * for the same username, the entry is the device's own claim to sign in:
 * the guessing strangers' waits on the username and the address do not
 * apply to it, only its own failures (see SignInThrottle). Only the
 * servers can make an entry, one entry names one account, and each
 * expires.
 */
export class KnownDevices {
  constructor(
    private readonly key: ServerKey,
    private readonly ttlMs: number,
  ) {}

  /** This browser's device id for the username, if its cookie holds an intact, unexpired entry for it. */
  async recognise(cookie: string | undefined, username: string, now = Date.now()): Promise<string | null> {
    const entries = await this.entries(cookie, now);
    return entries.find((entry) => entry.username === username)?.device ?? null;
  }

  /**
   * The cookie after a sign-in to the username: its entry made anew (with
   * the same device id, whose failures were just forgiven, or a new one),
   * first; the other accounts' entries kept while intact and unexpired, the
   * oldest dropped past the cap.
   */
  async remember(cookie: string | undefined, username: string, device: string | null, now = Date.now()): Promise<string> {
    const expiry = Math.floor((now + this.ttlMs) / 1000);
    const token = await this.key.sign(PREFIX, [username, device ?? randomBytes(16).toString('base64url'), expiry]);
    const others = (await this.entries(cookie, now)).filter((entry) => entry.username !== username);
    return [token, ...others.map((entry) => entry.token)].slice(0, KNOWN_ACCOUNTS_PER_BROWSER).join(SEPARATOR);
  }

  // Only the first few are read, however long a cookie someone sends.
  private async entries(cookie: string | undefined, now: number): Promise<Entry[]> {
    const tokens = (cookie ?? '').split(SEPARATOR, KNOWN_ACCOUNTS_PER_BROWSER).filter((token) => token.length > 0);
    const entries: Entry[] = [];
    for (const token of tokens) {
      const parsed = claims.safeParse(await this.key.open(PREFIX, token));
      if (parsed.success && parsed.data[2] * 1000 > now) entries.push({ token, username: parsed.data[0], device: parsed.data[1] });
    }
    return entries;
  }
}
