import { z } from 'zod';
import type { PublicPlayer } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServerKey } from './server-key.js';

const PREFIX = 'g.';

/** Intact tokens kept verified: a few megabytes at most. */
const VERIFIED_KEPT = 10_000;

/** What a guest token carries: who, under what name, until when (seconds since the epoch). */
const claims = z.tuple([z.string().uuid(), z.string().min(1).max(32), z.number().int().positive()]);

export interface GuestClaims {
  player: PublicPlayer;
  expiresAt: Date;
}

export interface GuestTokenSettings {
  /** The signing key, the same on every process; without it, one is made once in the database and shared from there. */
  secret?: string;
  ttlMs: number;
}

export function isGuestToken(token: string): boolean {
  return token.startsWith(PREFIX);
}

/**
 * A guest is a signed token, not a row: `g.<claims>.<HMAC-SHA256>`, so
 * becoming a guest writes nothing. Anyone may read the claims; only the
 * servers can make or alter them, and an expired one is refused.
 */
export class GuestTokens {
  private readonly key: ServerKey;
  /**
   * Tokens found intact lately (a token never changes): a guest's every
   * request, a crowd's reads among them, is not signed again. Only intact
   * ones are kept, the oldest forgotten first.
   */
  private readonly verified = new Map<string, GuestClaims>();

  constructor(
    db: Database,
    private readonly settings: GuestTokenSettings,
  ) {
    this.key = new ServerKey(db, settings.secret);
  }

  sign(player: PublicPlayer, now = new Date()): Promise<string> {
    const expiry = Math.floor((now.getTime() + this.settings.ttlMs) / 1000);
    return this.key.sign(PREFIX, [player.id, player.name, expiry]);
  }

  /** The claims of an intact, unexpired token; null for anything else. */
  async verify(token: string, now = new Date()): Promise<GuestClaims | null> {
    let found = this.verified.get(token);
    if (!found) {
      const parsed = claims.safeParse(await this.key.open(PREFIX, token));
      if (!parsed.success) return null;
      const [id, name, expiry] = parsed.data;
      found = { player: { id, name }, expiresAt: new Date(expiry * 1000) };
      this.verified.set(token, found);
      if (this.verified.size > VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value!);
    }
    return found.expiresAt > now ? { player: { ...found.player }, expiresAt: found.expiresAt } : null;
  }
}
