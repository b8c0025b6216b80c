import type { Database } from '../db/database.js';
import type { Prisma } from '../generated/prisma/client.js';
import { hashToken, newToken } from './tokens.js';

type Client = Database['prisma'] | Prisma.TransactionClient;

export interface SessionSettings {
  /** A session unused this long expires; each use moves the expiry forward. */
  ttlMs: number;
  /** Told the ids of revoked sessions, so their open sockets are closed (on every process). */
  onRevoked(sessionIds: string[]): void;
}

export interface LiveSession {
  id: string;
  playerId: string;
  expiresAt: Date;
}

export interface SessionPlayer {
  id: string;
  name: string;
  username: string | null;
}

interface SessionRow {
  id: string;
  playerId: string;
  expiresAt: Date;
  lastSeenAt: Date;
  revokedAt: Date | null;
  name: string;
  username: string | null;
}

const sessionRead = {
  name: 'session-read',
  text: `SELECT s.id, s.player_id AS "playerId", s.expires_at AS "expiresAt", s.last_seen_at AS "lastSeenAt", s.revoked_at AS "revokedAt",
                p.name, p.username
         FROM session s JOIN player p ON p.id = s.player_id
         WHERE s.token_hash = $1`,
};

// Writing last-seen on every request would make every read a write; a minute is precise enough to show.
const TOUCH_EVERY_MS = 60_000;

/**
 * Sessions: an opaque random token whose SHA-256 is the key of a row with
 * an expiry, a last-seen time and a revocation mark. The browser holds the
 * token in an httpOnly cookie; other clients send it as a Bearer token.
 */
export class Sessions {
  constructor(
    private readonly db: Database,
    private readonly settings: SessionSettings = { ttlMs: 30 * 24 * 3600 * 1000, onRevoked: () => {} },
  ) {}

  async open(playerId: string, client: Client = this.db.prisma): Promise<{ token: string; session: LiveSession }> {
    const token = newToken();
    const now = new Date();
    const row = await client.session.create({
      data: { tokenHash: hashToken(token), playerId, createdAt: now, lastSeenAt: now, expiresAt: this.expiryFrom(now) },
      select: { id: true, playerId: true, expiresAt: true },
    });
    return { token, session: row };
  }

  /**
   * The live session a token names, with its player, its expiry moved
   * forward; null when unknown, expired or revoked. Every socket and request
   * begins here, so it is one prepared statement (a crowd reconnecting at
   * once is a crowd of these); the touch, once a minute, goes through Prisma.
   */
  async find(token: string): Promise<(LiveSession & { player: SessionPlayer }) | null> {
    const [row] = await this.db.sql.query<SessionRow>(sessionRead, [hashToken(token)]);
    const now = new Date();
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    const live = { id: row.id, playerId: row.playerId, expiresAt: row.expiresAt, player: { id: row.playerId, name: row.name, username: row.username } };
    if (now.getTime() - row.lastSeenAt.getTime() < TOUCH_EVERY_MS) return live;
    const expiresAt = this.expiryFrom(now);
    // Only a session still live is extended: a revocation committed meanwhile wins.
    const touched = await this.db.prisma.session.updateMany({
      where: { id: row.id, revokedAt: null },
      data: { lastSeenAt: now, expiresAt },
    });
    return touched.count === 1 ? { ...live, expiresAt } : null;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.revokeWhere({ id: sessionId });
  }

  /** Every live session of the player, but `keep` if given. */
  async revokeAllOf(playerId: string, keep?: string): Promise<void> {
    await this.revokeWhere({ playerId, ...(keep ? { NOT: { id: keep } } : {}) });
  }

  private async revokeWhere(where: Prisma.SessionWhereInput): Promise<void> {
    const live = { ...where, revokedAt: null };
    const ids = (await this.db.prisma.session.findMany({ where: live, select: { id: true } })).map((row) => row.id);
    if (ids.length === 0) return;
    await this.db.prisma.session.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: new Date() } });
    this.settings.onRevoked(ids);
  }

  /** Sessions deleted with their account (account-closure.ts): their sockets are closed as a revoked session's are. */
  ended(sessionIds: string[]): void {
    if (sessionIds.length > 0) this.settings.onRevoked(sessionIds);
  }

  private expiryFrom(now: Date): Date {
    return new Date(now.getTime() + this.settings.ttlMs);
  }
}
