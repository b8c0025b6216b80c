import { ErrorCode } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import type { Prisma } from '../generated/prisma/client.js';
import { ServiceError } from '../errors.js';

/**
 * One account following another, one way (as on lichess). Both are
 * accounts: a guest's row may be cleaned up, and a follow is meant to last.
 * An account follows at most `maxPerPlayer` others, so no list grows forever.
 */
export class Follows {
  constructor(
    private readonly db: Database,
    private readonly maxPerPlayer: number,
  ) {}

  async follow(followerId: string, followeeId: string): Promise<void> {
    if (followerId === followeeId) throw new ServiceError(ErrorCode.BadRequest, 'One cannot follow oneself');
    await this.db.prisma.$transaction(async (tx) => {
      // The follower's row, locked: two follows at once are counted one after the other.
      const [me] = await tx.$queryRaw<Array<{ password_hash: string | null }>>`SELECT password_hash FROM player WHERE id = ${followerId}::uuid FOR UPDATE`;
      if (me?.password_hash == null) throw new ServiceError(ErrorCode.AccountRequired, 'Following is for accounts: keep your account first', 403);
      const target = await tx.player.findUnique({ where: { id: followeeId }, select: { passwordHash: true, botLevel: true } });
      if (!target || target.botLevel !== null) throw new ServiceError(ErrorCode.NotFound, 'No such player', 404);
      if (target.passwordHash === null) throw new ServiceError(ErrorCode.AccountRequired, 'Only accounts can be followed; this player is a guest', 403);
      if (await isFollowing(tx, followerId, followeeId)) return;
      if ((await tx.follow.count({ where: { followerId } })) >= this.maxPerPlayer) {
        throw new ServiceError(ErrorCode.TooManyFollows, `At most ${this.maxPerPlayer} players followed; unfollow one first`, 429);
      }
      await tx.follow.create({ data: { followerId, followeeId } });
    });
  }

  async unfollow(followerId: string, followeeId: string): Promise<void> {
    await this.db.prisma.follow.deleteMany({ where: { followerId, followeeId } });
  }

  isFollowing(followerId: string, followeeId: string): Promise<boolean> {
    return isFollowing(this.db.prisma, followerId, followeeId);
  }
}

/** Whether `followerId` follows `followeeId` (in a transaction, or not). */
export async function isFollowing(client: Pick<Prisma.TransactionClient, 'follow'>, followerId: string, followeeId: string): Promise<boolean> {
  return (await client.follow.count({ where: { followerId, followeeId } })) > 0;
}
