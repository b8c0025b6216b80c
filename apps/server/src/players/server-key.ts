import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.js';

// The row's name predates the key's second use; a new name would be a new key, and every guest token would fail.
const SECRET_NAME = 'guest-token';

/**
 * The key every process signs with (guest tokens, known-device cookies):
 * the configured secret, or one made once in the database and read from
 * there by every process. What it signs starts with a prefix of its kind,
 * so a signature made for one kind never passes for another.
 */
export class ServerKey {
  private key?: Promise<Buffer>;

  constructor(
    private readonly db: Database,
    private readonly secret?: string,
  ) {}

  /** `<prefix><claims as base64url JSON>.<HMAC-SHA256>`: anyone may read the claims, only the servers make them. */
  async sign(prefix: string, claims: unknown): Promise<string> {
    const body = prefix + Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${(await this.mac(body)).toString('base64url')}`;
  }

  /** The claims of an intact token of this prefix, still to be checked for their shape; null for anything else. */
  async open(prefix: string, token: string): Promise<unknown> {
    const dot = token.lastIndexOf('.');
    if (!token.startsWith(prefix) || dot <= prefix.length) return null;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = await this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      return JSON.parse(Buffer.from(body.slice(prefix.length), 'base64url').toString('utf8'));
    } catch {
      return null;
    }
  }

  private async mac(body: string): Promise<Buffer> {
    // A database that could not be reached is asked again next time.
    this.key ??= this.load().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', await this.key).update(body).digest();
  }

  // Whichever process asks first makes the key; the others read the same row.
  private async load(): Promise<Buffer> {
    if (this.secret) return Buffer.from(this.secret);
    const made = randomBytes(48).toString('base64url');
    await this.db.prisma.serverSecret.createMany({ data: [{ name: SECRET_NAME, value: made }], skipDuplicates: true });
    const row = await this.db.prisma.serverSecret.findUniqueOrThrow({ where: { name: SECRET_NAME } });
    return Buffer.from(row.value);
  }
}
