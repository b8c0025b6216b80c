import type { RuleOptions } from '@oanquan/rules';
import { ErrorCode, type Challenge, type ChallengeGone, type ClientPayload, type PublicPlayer } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { KeyedQueue } from '../matches/keyed-queue.js';
import { guestRemoved } from '../players/guest-removed.js';
import { pairMayBeRated } from '../ratings/rating-service.js';
import { asJson, insertRoom, rulesFromChoice, timeControlOf } from '../rooms/room-service.js';
import { playerChannel, type GameServer } from '../realtime/game-server.js';
import { blockedBetween, type Blocks } from './blocks.js';
import { checkChallengeCaps, lockAddress, type ChallengeCaps } from './challenge-caps.js';
import { mayChallenge } from './challenge-preference.js';

/** Everyone following the list of open challenges (the lobby), on every process. */
export const lobbyChannel = 'lobby';

export interface ChallengeSettings extends ChallengeCaps {
  /** How long a direct challenge waits for an answer. */
  ttlMs: number;
  /** How long a challenge outlives its creator's (or target's) last connection. */
  graceMs: number;
  /** The open challenges a client is sent when it starts following the lobby. */
  listed: number;
}

const withPeople = {
  creator: { select: { id: true, name: true, rating: true, passwordHash: true } },
  target: { select: { id: true, name: true } },
} as const;
type Row = Prisma.ChallengeGetPayload<{ include: typeof withPeople }>;

function describe(row: Row): Challenge {
  return {
    id: row.id,
    from: { id: row.creator.id, name: row.creator.name, rating: Math.round(row.creator.rating), account: row.creator.passwordHash !== null },
    to: row.target,
    rules: row.rules as unknown as RuleOptions,
    timeControl: timeControlOf(row),
    rated: row.rated,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

type Terms = ClientPayload<'challenge:open'>;

/**
 * Open and direct challenges. Their state is the `challenge` table, so every
 * process sees the same ones; what changes is told through the Socket.IO
 * adapter (the lobby channel, each player's channel), so it reaches every
 * process too. Taking a challenge deletes its row in the transaction that
 * makes the room, so it is taken once.
 */
export class ChallengeService {
  /**
   * Challenges from one address are made one at a time in this process: its
   * flood waits behind itself in memory (as long as its budget per minute
   * lets it grow) instead of holding a database connection each while it
   * waits for the address's lock.
   */
  private readonly byAddress = new KeyedQueue();

  constructor(
    private readonly db: Database,
    private readonly io: GameServer,
    private readonly blocks: Blocks,
    private readonly settings: ChallengeSettings,
  ) {}

  /** The open challenges, newest first, of creators still here, but for those of people `viewerId` blocks or is blocked by. */
  async openList(viewerId: string): Promise<Challenge[]> {
    const rows = await this.db.prisma.challenge.findMany({
      where: {
        targetId: null,
        creatorSeenAt: { gte: new Date(Date.now() - this.settings.graceMs) },
        creator: { blocking: { none: { blockedId: viewerId } }, blockedBy: { none: { blockerId: viewerId } } },
      },
      orderBy: { createdAt: 'desc' },
      take: this.settings.listed,
      include: withPeople,
    });
    return rows.map(describe);
  }

  /** `to` set: a direct challenge to that person; unset: an open one, listed in the lobby. */
  async create(creator: PublicPlayer, address: string, terms: Terms, to?: string): Promise<Challenge> {
    const challenge = await this.byAddress.run(address, async () => {
      // A flood is refused by one read each, without a transaction; what may pass is counted again under the locks.
      await checkChallengeCaps(this.db.prisma, this.settings, { playerId: creator.id, address }, to);
      return this.db.prisma.$transaction((tx) => this.insert(tx, creator, address, terms, to));
    });
    const described = describe(challenge);
    if (to === undefined) this.io.to(lobbyChannel).except((await this.blocks.eitherWay(creator.id)).map(playerChannel)).emit('lobby:added', described);
    else this.io.to(playerChannel(to)).emit('challenge:received', described);
    return described;
  }

  private async insert(tx: Prisma.TransactionClient, creator: PublicPlayer, address: string, terms: Terms, to: string | undefined): Promise<Row> {
    const rules = rulesFromChoice(terms.rules);
    await lockAddress(tx, address);
    // The creator's row and the target's, locked in one order: challenges sent together (to one target, or by one creator) are counted one after the other.
    const people = to === undefined || to === creator.id ? [creator.id] : [creator.id, to];
    const locked = await tx.$queryRaw<Array<{ id: string; password_hash: string | null }>>`
      SELECT id::text AS id, password_hash FROM player WHERE id = ANY(${people}::uuid[]) ORDER BY id FOR UPDATE`;
    const me = locked.find((row) => row.id === creator.id);
    if (!me) throw guestRemoved();
    const account = me.password_hash !== null;
    if (terms.rated && !account) {
      throw new ServiceError(ErrorCode.AccountRequired, 'Rated games need an account: keep your account, or offer a casual game', 403);
    }
    if (to !== undefined) await this.checkTarget(tx, { id: creator.id, account }, to, terms.rated);
    await checkChallengeCaps(tx, this.settings, { playerId: creator.id, address }, to);
    const tc = terms.timeControl;
    return tx.challenge.create({
      data: {
        creatorId: creator.id,
        targetId: to ?? null,
        rules: asJson(rules),
        initialMs: tc ? tc.initialSeconds * 1000 : null,
        incrementMs: tc ? tc.incrementSeconds * 1000 : null,
        rated: terms.rated,
        address,
        expiresAt: to === undefined ? null : new Date(Date.now() + this.settings.ttlMs),
      },
      include: withPeople,
    });
  }

  private async checkTarget(tx: Prisma.TransactionClient, from: { id: string; account: boolean }, to: string, rated: boolean): Promise<void> {
    if (to === from.id) throw new ServiceError(ErrorCode.NotChallengeable, 'One cannot challenge oneself');
    const target = await tx.player.findUnique({ where: { id: to }, select: { botLevel: true, passwordHash: true, challengesFrom: true } });
    if (!target) throw new ServiceError(ErrorCode.NotFound, 'No such player', 404);
    if (target.botLevel !== null) throw new ServiceError(ErrorCode.NotChallengeable, 'The computer is played from the home page');
    if (rated && target.passwordHash === null) throw new ServiceError(ErrorCode.AccountRequired, 'Rated games are between accounts; this player is a guest', 403);
    if (await blockedBetween(tx, from.id, to)) throw new ServiceError(ErrorCode.Blocked, 'This player does not take challenges from you', 403);
    // A guest cannot change the setting: theirs stays the default, everyone.
    if (!(await mayChallenge(tx, target.challengesFrom, from, to))) throw new ServiceError(ErrorCode.NotAcceptingChallenges, 'This player does not take challenges from you now', 403);
  }

  async cancel(playerId: string, id: string): Promise<void> {
    const [gone] = await this.db.prisma.$queryRaw<Array<{ target_id: string | null }>>`
      DELETE FROM challenge WHERE id = ${id}::uuid AND creator_id = ${playerId}::uuid RETURNING target_id`;
    if (!gone) throw challengeGone();
    this.tellGone({ id, creatorId: playerId, targetId: gone.target_id }, 'cancelled');
  }

  async decline(playerId: string, id: string): Promise<void> {
    const [gone] = await this.db.prisma.$queryRaw<Array<{ creator_id: string }>>`
      DELETE FROM challenge WHERE id = ${id}::uuid AND target_id = ${playerId}::uuid RETURNING creator_id`;
    if (!gone) throw challengeGone();
    this.tellGone({ id, creatorId: gone.creator_id, targetId: playerId }, 'declined');
  }

  /** Takes the challenge: a room with both seats, whose match starts at the opener, and both players told where. */
  async accept(player: PublicPlayer, id: string): Promise<{ roomCode: string; matchId: string }> {
    const made = await this.db.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ creator_id: string; target_id: string | null; rated: boolean; expires_at: Date | null }>>`
        SELECT creator_id, target_id, rated, expires_at FROM challenge WHERE id = ${id}::uuid FOR UPDATE`;
      const now = new Date();
      if (!row || (row.target_id !== null && row.target_id !== player.id) || (row.expires_at !== null && row.expires_at <= now)) throw challengeGone();
      if (row.creator_id === player.id) throw new ServiceError(ErrorCode.NotChallengeable, 'This is your own challenge: wait for someone to take it, or cancel it');
      if (await blockedBetween(tx, row.creator_id, player.id)) throw new ServiceError(ErrorCode.Blocked, 'No game between these two players', 403);
      if (row.rated) {
        const me = await tx.player.findUnique({ where: { id: player.id }, select: { passwordHash: true } });
        if (me?.passwordHash == null) throw new ServiceError(ErrorCode.AccountRequired, 'Rated games need an account: keep your account, or take a casual game', 403);
      }
      const challenge = await tx.challenge.delete({ where: { id } });
      const seats: [string, string] = [row.creator_id, player.id];
      const room = await insertRoom(tx, {
        creatorId: row.creator_id,
        rules: challenge.rules as unknown as RuleOptions,
        timeControl: timeControlOf(challenge),
        // A pair past its daily rated games plays casual, and is told so from the opener on.
        rated: row.rated && (await pairMayBeRated(tx, seats, now)),
        seats,
      });
      return { room, creatorId: row.creator_id, open: row.target_id === null };
    });
    const accepted = { id, roomCode: made.room.code, matchId: made.room.matchId };
    this.io.to([playerChannel(made.creatorId), playerChannel(player.id)]).emit('challenge:accepted', accepted);
    if (made.open) this.io.to(lobbyChannel).emit('lobby:removed', { id, reason: 'accepted' });
    return { roomCode: accepted.roomCode, matchId: accepted.matchId };
  }

  /** Tells who followed a challenge that it is gone: the lobby for an open one, both people for a direct one. */
  tellGone(challenge: { id: string; creatorId: string; targetId: string | null }, reason: ChallengeGone['reason']): void {
    const gone = { id: challenge.id, reason };
    if (challenge.targetId === null) this.io.to(lobbyChannel).emit('lobby:removed', gone);
    else this.io.to([playerChannel(challenge.creatorId), playerChannel(challenge.targetId)]).emit('challenge:gone', gone);
  }
}

function challengeGone(): ServiceError {
  return new ServiceError(ErrorCode.ChallengeGone, 'This challenge is no longer open', 404);
}
