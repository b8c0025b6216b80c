import type { PublicPlayer } from '@oanquan/protocol';
import { ErrorCode } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { guestName } from './guest-names.js';
import { hashToken, newToken } from './tokens.js';

export class PlayerService {
  constructor(private readonly db: Database) {}

  async createGuest(): Promise<{ token: string; player: PublicPlayer }> {
    const token = newToken();
    const row = await this.db.prisma.player.create({ data: { name: guestName(), tokenHash: hashToken(token) } });
    return { token, player: { id: row.id, name: row.name } };
  }

  /** The player a token belongs to; a forged or unknown token is refused. */
  async authenticate(token: unknown): Promise<PublicPlayer> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) {
      throw new ServiceError(ErrorCode.Unauthorized, 'A session token is required', 401);
    }
    const row = await this.db.prisma.player.findUnique({ where: { tokenHash: hashToken(token) }, select: { id: true, name: true } });
    if (!row) throw new ServiceError(ErrorCode.Unauthorized, 'Unknown session token', 401);
    return row;
  }

  async rename(playerId: string, name: string): Promise<PublicPlayer> {
    return this.db.prisma.player.update({ where: { id: playerId }, data: { name }, select: { id: true, name: true } });
  }
}
