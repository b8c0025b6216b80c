import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { PublicPlayer } from '@oanquan/protocol';
import type { Database } from '../db/database.js';

const PREFIX = 'g.';
const SECRET_NAME = 'guest-token';

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
  private key?: Promise<Buffer>;

  constructor(
    private readonly db: Database,
    private readonly settings: GuestTokenSettings,
  ) {}

  async sign(player: PublicPlayer, now = new Date()): Promise<string> {
    const expiry = Math.floor((now.getTime() + this.settings.ttlMs) / 1000);
    const body = PREFIX + Buffer.from(JSON.stringify([player.id, player.name, expiry])).toString('base64url');
    return `${body}.${(await this.mac(body)).toString('base64url')}`;
  }

  /** The claims of an intact, unexpired token; null for anything else. */
  async verify(token: string, now = new Date()): Promise<GuestClaims | null> {
    const dot = token.lastIndexOf('.');
    if (!isGuestToken(token) || dot <= PREFIX.length) return null;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = await this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let parsed: z.infer<typeof claims>;
    try {
      parsed = claims.parse(JSON.parse(Buffer.from(body.slice(PREFIX.length), 'base64url').toString('utf8')));
    } catch {
      return null;
    }
    const [id, name, expiry] = parsed;
    const expiresAt = new Date(expiry * 1000);
    return expiresAt > now ? { player: { id, name }, expiresAt } : null;
  }

  private async mac(body: string): Promise<Buffer> {
    // A database that could not be reached is asked again next time.
    this.key ??= this.loadKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', await this.key).update(body).digest();
  }

  // Whichever process asks first makes the key; the others read the same row.
  private async loadKey(): Promise<Buffer> {
    if (this.settings.secret) return Buffer.from(this.settings.secret);
    const made = randomBytes(48).toString('base64url');
    await this.db.prisma.serverSecret.createMany({ data: [{ name: SECRET_NAME, value: made }], skipDuplicates: true });
    const row = await this.db.prisma.serverSecret.findUniqueOrThrow({ where: { name: SECRET_NAME } });
    return Buffer.from(row.value);
  }
}
