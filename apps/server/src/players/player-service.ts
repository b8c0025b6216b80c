import type { Lang, PublicPlayer } from '@oanquan/protocol';
import { ErrorCode } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { guestName } from './guest-names.js';
import { Sessions, type LiveSession } from './sessions.js';

/** Who sent a request or opened a socket: the player, the session it came through, and whether it is an account. */
export interface Identity {
  player: PublicPlayer;
  session: LiveSession;
  username: string | null;
}

export class PlayerService {
  constructor(
    private readonly db: Database,
    readonly sessions: Sessions = new Sessions(db),
  ) {}

  /** A new guest, named in `lang`, the language of the one who asked. */
  async createGuest(lang: Lang = 'vi'): Promise<{ token: string; player: PublicPlayer; session: LiveSession }> {
    const row = await this.db.prisma.player.create({ data: { name: guestName(lang) }, select: { id: true, name: true } });
    const { token, session } = await this.sessions.open(row.id);
    return { token, player: row, session };
  }

  /** The player a token belongs to; a forged, unknown, expired or revoked token is refused. */
  async authenticate(token: unknown): Promise<PublicPlayer> {
    return (await this.identify(token)).player;
  }

  async identify(token: unknown): Promise<Identity> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) {
      throw new ServiceError(ErrorCode.Unauthorized, 'A session token is required', 401);
    }
    const found = await this.sessions.find(token);
    if (!found) throw new ServiceError(ErrorCode.Unauthorized, 'Unknown, expired or revoked session', 401);
    const { player, ...session } = found;
    return { player: { id: player.id, name: player.name }, session, username: player.username };
  }

  async rename(playerId: string, name: string): Promise<PublicPlayer> {
    return this.db.prisma.player.update({ where: { id: playerId }, data: { name }, select: { id: true, name: true } });
  }
}
