import { DEFAULT_GLICKO, DELETED_PLAYER_NAME, ErrorCode } from '@oanquan/protocol';
import type { Database, Tx } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { verifyPassword } from './passwords.js';
import type { Identity } from './player-service.js';
import type { Sessions } from './sessions.js';

export type ClosureOutcome = 'closed' | 'already-closed';

const badCredentials = () => new ServiceError(ErrorCode.BadCredentials, 'Wrong password', 401);

/**
 * Closing an account for good, as the large chess sites do. The player's
 * row stays, emptied: its games are also their opponents' records (every
 * move, result and rating change stays, under the name "deleted player"),
 * and its username and the username's folded and look-alike forms stay as
 * unique columns, so nobody can sign up or rename to the name. Everything
 * else that is the person's goes: the password, the sessions (their
 * sockets are closed), the settings, the rating, follows and blocks both
 * ways, the queue, challenges, arena entries, puzzle tries.
 *
 * A game in play (opener or moves) refuses the closing: the opponent is
 * owed a finished game, and resigning it for them would decide it.
 */
export class AccountClosure {
  constructor(
    private readonly db: Database,
    private readonly sessions: Sessions,
  ) {}

  async close(identity: Identity, password: string): Promise<ClosureOutcome> {
    if (identity.username === null) throw new ServiceError(ErrorCode.AccountRequired, 'A guest has no account to close', 403);
    const playerId = identity.player.id;
    const row = await this.db.prisma.player.findUniqueOrThrow({ where: { id: playerId }, select: { passwordHash: true, closedAt: true } });
    if (row.closedAt) return 'already-closed';
    // Checked outside the transaction (it takes a while, on purpose), and its hash compared again inside.
    if (!(await verifyPassword(row.passwordHash, password))) throw badCredentials();
    const ended = await this.db.prisma.$transaction(async (tx) => {
      // The row held for the change: a second closing waits here and then finds it closed; a seat taken meanwhile (holdPlayer) is seen below.
      const [held] = await tx.$queryRaw<Array<{ passwordHash: string | null; closed: boolean }>>`
        SELECT password_hash AS "passwordHash", closed_at IS NOT NULL AS closed FROM player WHERE id = ${playerId}::uuid FOR UPDATE`;
      if (!held || held.closed) return null;
      // The password changed since it was checked: the check was of the old one.
      if (held.passwordHash !== row.passwordHash) throw badCredentials();
      await refuseLiveGames(tx, playerId);
      return empty(tx, playerId);
    });
    if (ended === null) return 'already-closed';
    this.sessions.ended(ended);
    return 'closed';
  }
}

async function refuseLiveGames(tx: Tx, playerId: string): Promise<void> {
  const live = await tx.match.findFirst({
    where: { status: { in: ['opener', 'playing'] }, OR: [{ player0Id: playerId }, { player1Id: playerId }] },
    select: { id: true },
  });
  if (live) throw new ServiceError(ErrorCode.GameInProgress, 'A game of yours is in play: finish or resign it first', 409);
}

/** Everything of the person's but the row and its games; the ids of the sessions deleted. */
async function empty(tx: Tx, playerId: string): Promise<string[]> {
  const sessions = await tx.session.findMany({ where: { playerId }, select: { id: true } });
  await tx.session.deleteMany({ where: { playerId } });
  await tx.follow.deleteMany({ where: { OR: [{ followerId: playerId }, { followeeId: playerId }] } });
  await tx.playerBlock.deleteMany({ where: { OR: [{ blockerId: playerId }, { blockedId: playerId }] } });
  await tx.queueEntry.deleteMany({ where: { playerId } });
  await tx.challenge.deleteMany({ where: { OR: [{ creatorId: playerId }, { targetId: playerId }] } });
  await tx.arenaPlayer.deleteMany({ where: { playerId } });
  await tx.puzzleAttempt.deleteMany({ where: { playerId } });
  await tx.puzzleSolver.deleteMany({ where: { playerId } });
  // Rooms, arenas and analyses stay (they hold others' games); who asked for them is forgotten.
  await tx.room.updateMany({ where: { createdById: playerId }, data: { createdById: null } });
  await tx.arena.updateMany({ where: { createdById: playerId }, data: { createdById: null } });
  await tx.matchAnalysis.updateMany({ where: { requestedById: playerId }, data: { requestedById: null } });
  await tx.player.update({
    where: { id: playerId },
    data: {
      closedAt: new Date(),
      name: DELETED_PLAYER_NAME,
      passwordHash: null,
      challengesFrom: 'everyone',
      ...DEFAULT_GLICKO,
      ratedGames: 0,
    },
  });
  return sessions.map((session) => session.id);
}
