import { ErrorCode, type BlockList } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import type { Prisma } from '../generated/prisma/client.js';
import { ServiceError } from '../errors.js';

/**
 * One person refusing another: no challenge passes between them either way,
 * and the blocked person's quick messages never reach the blocker. A blocker
 * keeps at most `maxPerPlayer` blocks, so no one's list grows forever.
 */
export class Blocks {
  constructor(
    private readonly db: Database,
    private readonly maxPerPlayer: number,
  ) {}

  async block(blockerId: string, blockedId: string): Promise<void> {
    if (blockerId === blockedId) throw new ServiceError(ErrorCode.BadRequest, 'One cannot block oneself');
    const target = await this.db.prisma.player.findUnique({ where: { id: blockedId }, select: { id: true } });
    if (!target) throw new ServiceError(ErrorCode.NotFound, 'No such player', 404);
    const count = await this.db.prisma.playerBlock.count({ where: { blockerId } });
    const already = await this.db.prisma.playerBlock.findUnique({ where: { blockerId_blockedId: { blockerId, blockedId } } });
    if (already) return;
    if (count >= this.maxPerPlayer) throw new ServiceError(ErrorCode.RateLimited, `At most ${this.maxPerPlayer} blocked players; unblock one first`, 429);
    await this.db.prisma.playerBlock.createMany({ data: [{ blockerId, blockedId }], skipDuplicates: true });
  }

  async unblock(blockerId: string, blockedId: string): Promise<void> {
    await this.db.prisma.playerBlock.deleteMany({ where: { blockerId, blockedId } });
  }

  async list(blockerId: string): Promise<BlockList> {
    const rows = await this.db.prisma.playerBlock.findMany({
      where: { blockerId },
      orderBy: { createdAt: 'desc' },
      select: { blocked: { select: { id: true, name: true } } },
    });
    return { players: rows.map((row) => row.blocked) };
  }

  /** Who blocks `playerId` or is blocked by them (the most recent `limit` of each): they never see each other's open challenges. */
  async eitherWay(playerId: string, limit = 1000): Promise<string[]> {
    const blocked = await this.db.prisma.playerBlock.findMany({ where: { blockerId: playerId }, orderBy: { createdAt: 'desc' }, take: limit, select: { blockedId: true } });
    return [...(await this.blockersOf(playerId, limit)), ...blocked.map((row) => row.blockedId)];
  }

  /**
   * Who blocks `playerId` (the most recent `limit`): their sockets are left
   * out of what this person says. Past the limit a block is still kept for
   * challenges; only so many channels are left out of one broadcast.
   */
  async blockersOf(playerId: string, limit = 1000): Promise<string[]> {
    const rows = await this.db.prisma.playerBlock.findMany({ where: { blockedId: playerId }, orderBy: { createdAt: 'desc' }, take: limit, select: { blockerId: true } });
    return rows.map((row) => row.blockerId);
  }
}

/** Whether either of the two blocks the other (in a transaction, or not). */
export async function blockedBetween(client: Pick<Prisma.TransactionClient, 'playerBlock'>, a: string, b: string): Promise<boolean> {
  const found = await client.playerBlock.count({ where: { OR: [{ blockerId: a, blockedId: b }, { blockerId: b, blockedId: a }] } });
  return found > 0;
}
