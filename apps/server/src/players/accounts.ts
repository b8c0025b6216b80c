import { ErrorCode, type AccountPlayer } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { Prisma } from '../generated/prisma/client.js';
import { ServiceError } from '../errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { Identity, PlayerService } from './player-service.js';
import type { LiveSession, Sessions } from './sessions.js';
import { usernameKey, usernameSkeleton } from './username-forms.js';

const badCredentials = () => new ServiceError(ErrorCode.BadCredentials, 'Wrong username or password', 401);

/**
 * Accounts: a guest keeps their player (and so every match, the rating and
 * the history) by giving it a username and a password; later they sign in
 * to that player from any device.
 */
export class Accounts {
  constructor(
    private readonly db: Database,
    private readonly sessions: Sessions,
    private readonly players: PlayerService,
  ) {}

  async keep(identity: Identity, username: string, password: string): Promise<AccountPlayer> {
    if (identity.username !== null) throw new ServiceError(ErrorCode.AlreadyAnAccount, 'This player already has an account', 409);
    const passwordHash = await hashPassword(password);
    // A guest who never sat down has no row yet; sign-ups have their own limit per address.
    await this.players.ensureRow(identity);
    const key = usernameKey(username);
    try {
      // Only a guest is turned into an account, even if two requests race.
      const kept = await this.db.prisma.player.updateMany({
        where: { id: identity.player.id, passwordHash: null, closedAt: null },
        data: { username, usernameKey: key, usernameSkeleton: usernameSkeleton(username), passwordHash, name: username },
      });
      if (kept.count === 0) throw new ServiceError(ErrorCode.AlreadyAnAccount, 'This player already has an account', 409);
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        // Which of the two unique forms clashed is asked, not read from the error: the drivers word it differently.
        const same = await this.db.prisma.player.count({ where: { usernameKey: key } });
        if (same > 0) throw new ServiceError(ErrorCode.UsernameTaken, 'That username is taken', 409);
        throw new ServiceError(ErrorCode.UsernameLookalike, 'That username looks like one already taken', 409);
      }
      throw error;
    }
    return { id: identity.player.id, name: username, username };
  }

  async login(username: string, password: string): Promise<{ token: string; session: LiveSession; player: AccountPlayer }> {
    const row = await this.db.prisma.player.findUnique({
      where: { usernameKey: usernameKey(username) },
      select: { id: true, name: true, username: true, passwordHash: true },
    });
    if (!(await verifyPassword(row?.passwordHash ?? null, password)) || !row) throw badCredentials();
    const { token, session } = await this.sessions.open(row.id);
    return { token, session, player: { id: row.id, name: row.name, username: row.username } };
  }

  /** Every other session of the account is signed out: a changed password locks out whoever knew the old one. */
  async changePassword(identity: Identity, currentPassword: string, newPassword: string): Promise<void> {
    if (identity.username === null) throw new ServiceError(ErrorCode.AccountRequired, 'A guest has no password; keep your account first', 403);
    const row = await this.db.prisma.player.findUniqueOrThrow({ where: { id: identity.player.id }, select: { passwordHash: true } });
    if (!(await verifyPassword(row.passwordHash, currentPassword))) throw badCredentials();
    await this.db.prisma.player.update({ where: { id: identity.player.id }, data: { passwordHash: await hashPassword(newPassword) } });
    await this.sessions.revokeAllOf(identity.player.id, identity.session?.id);
  }
}
