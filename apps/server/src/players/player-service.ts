import type { Lang, PublicPlayer } from '@oanquan/protocol';
import { ErrorCode } from '@oanquan/protocol';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { guestName } from './guest-names.js';
import { GuestTokens, isGuestToken } from './guest-tokens.js';
import { Sessions, type LiveSession } from './sessions.js';
import { usernameKey, usernameSkeleton } from './username-forms.js';

/**
 * Who sent a request or opened a socket: the player, the session it came
 * through (none for a guest's signed token), whether it is an account, and
 * whether the player has a row yet (a guest has none until they sit down).
 */
export interface Identity {
  player: PublicPlayer;
  session: LiveSession | null;
  username: string | null;
  hasRow: boolean;
}

/** Who is about to do something that needs their row. */
export type Sitter = Pick<Identity, 'player' | 'hasRow'>;

const unauthorized = (message: string) => new ServiceError(ErrorCode.Unauthorized, message, 401);

const guestRead = {
  name: 'guest-read',
  text: 'SELECT name, password_hash IS NOT NULL AS "isAccount", closed_at IS NOT NULL AS closed FROM player WHERE id = $1',
};

// A guest token carries a name of up to 32 characters (4 bytes each at most), so it is longer than a session's.
const MAX_TOKEN_LENGTH = 400;

export class PlayerService {
  constructor(
    private readonly db: Database,
    readonly sessions: Sessions = new Sessions(db),
    readonly guests: GuestTokens = new GuestTokens(db, { ttlMs: 30 * 24 * 3600 * 1000 }),
  ) {}

  /** A new guest costs nothing: a fresh id and a name in `lang`, the language of the one who asked, signed. Their row is made when they first sit down. */
  async newGuest(lang: Lang = 'vi'): Promise<{ token: string; player: PublicPlayer }> {
    const player = { id: randomUUID(), name: guestName(lang) };
    return { token: await this.guests.sign(player), player };
  }

  /** The player a token belongs to; a forged, altered, unknown, expired or revoked token is refused. */
  async authenticate(token: unknown): Promise<PublicPlayer> {
    return (await this.identify(token)).player;
  }

  /**
   * Whose own line a read of public standings shows, without their row: a
   * guest's id from their token's checked signature alone, an account's
   * from its session. The line is one anyone can read, so a flood of guests
   * reading costs no lookup each; acts that change something identify.
   */
  async readerOf(token: unknown): Promise<string> {
    if (typeof token === 'string' && token.length <= MAX_TOKEN_LENGTH && isGuestToken(token)) {
      const claims = await this.guests.verify(token);
      if (!claims) throw unauthorized('Forged, altered or expired guest token');
      return claims.player.id;
    }
    return (await this.identify(token)).player.id;
  }

  async identify(token: unknown): Promise<Identity> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
      throw unauthorized('A session token is required');
    }
    if (isGuestToken(token)) return this.identifyGuest(token);
    const found = await this.sessions.find(token);
    if (!found) throw unauthorized('Unknown, expired or revoked session');
    const { player, ...session } = found;
    return { player: { id: player.id, name: player.name }, session, username: player.username, hasRow: true };
  }

  /**
   * A guest who sat down has a row, which may have been renamed since the
   * token was signed. One that became an account is reached only through
   * its sessions, which a new password or "sign out everywhere" can end.
   */
  private async identifyGuest(token: string): Promise<Identity> {
    const claims = await this.guests.verify(token);
    if (!claims) throw unauthorized('Forged, altered or expired guest token');
    const [row] = await this.db.sql.query<{ name: string; isAccount: boolean; closed: boolean }>(guestRead, [claims.player.id]);
    if (row?.isAccount) throw unauthorized('This guest has become an account: sign in');
    // The guest token of a player who kept an account and closed it is as dead as the account's sessions.
    if (row?.closed) throw unauthorized('This account was closed');
    const player = row ? { id: claims.player.id, name: row.name } : claims.player;
    return { player, session: null, username: null, hasRow: row !== undefined };
  }

  /** The guest's row, with the id and name of their token, made the first time they do something that is kept. */
  async ensureRow({ player, hasRow }: Sitter): Promise<void> {
    if (hasRow) return;
    await this.db.prisma.player.createMany({ data: [{ id: player.id, name: player.name }], skipDuplicates: true });
  }

  /**
   * A display name is shown where a username is, so it may not be, or look
   * like, anyone else's username; one's own is fine. Both forms are unique
   * columns, so this is one indexed read.
   */
  async rename(playerId: string, name: string): Promise<PublicPlayer> {
    const lookalike = await this.db.prisma.player.findFirst({
      where: { id: { not: playerId }, OR: [{ usernameKey: usernameKey(name) }, { usernameSkeleton: usernameSkeleton(name) }] },
      select: { id: true },
    });
    if (lookalike) throw new ServiceError(ErrorCode.NameLooksLikeUsername, "That name looks like another player's username", 409);
    return this.db.prisma.player.update({ where: { id: playerId }, data: { name }, select: { id: true, name: true } });
  }
}
