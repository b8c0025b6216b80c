import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';

/** The class of the advisory lock under which one address's challenges are counted (the other key is the address's hash). */
const ADDRESS_LOCK_CLASS = 7_300_503;

export interface ChallengeCaps {
  /** Challenges out at once, per person and per address. */
  perPlayer: number;
  perAddress: number;
  /** Open challenges out at once per address: no address holds more rows of the lobby. */
  openPerAddress: number;
  /** Direct challenges waiting for one person at once, in all and from one address; one sender has one waiting for them at most. */
  toPlayer: number;
  toPlayerPerAddress: number;
}

/**
 * Counts what one address sends one after the other, on every process:
 * taken first in a challenge's transaction (before any row lock, so that
 * two of them never wait on each other the other way round), it lets the
 * caps per address hold however many of its sockets send at once.
 */
export async function lockAddress(tx: Prisma.TransactionClient, address: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${ADDRESS_LOCK_CLASS}::int4, hashtext(${address}))`;
}

/**
 * Refuses a challenge past a cap: what the sender and their address have
 * out, and for a direct one what already waits for its target. Free guests
 * cost nothing, so the target's caps are counted by address as well as by
 * sender. Final under the address's lock and the target's row lock; a
 * read without them refuses early, as the locked one would have.
 */
export async function checkChallengeCaps(tx: Pick<Prisma.TransactionClient, '$queryRaw'>, caps: ChallengeCaps, from: { playerId: string; address: string }, to: string | undefined): Promise<void> {
  const tooMany = (message: string) => new ServiceError(ErrorCode.TooManyChallenges, message, 429);
  const [out] = await tx.$queryRaw<Array<{ mine: number; address: number; open: number }>>`
    SELECT count(*) FILTER (WHERE creator_id = ${from.playerId}::uuid)::int AS mine,
           count(*) FILTER (WHERE address = ${from.address})::int AS address,
           count(*) FILTER (WHERE address = ${from.address} AND target_id IS NULL)::int AS open
    FROM challenge WHERE creator_id = ${from.playerId}::uuid OR address = ${from.address}`;
  if (out!.mine >= caps.perPlayer) throw tooMany(`At most ${caps.perPlayer} challenges at once; cancel one first`);
  if (out!.address >= caps.perAddress) throw tooMany('Too many challenges from this address at once; try again later');
  if (to === undefined) {
    if (out!.open >= caps.openPerAddress) throw tooMany('Too many open challenges from this address at once; try again later');
    return;
  }
  const waiting = (message: string) => new ServiceError(ErrorCode.ChallengesWaiting, message, 429);
  const [inbox] = await tx.$queryRaw<Array<{ total: number; address: number; mine: number }>>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE address = ${from.address})::int AS address,
           count(*) FILTER (WHERE creator_id = ${from.playerId}::uuid)::int AS mine
    FROM challenge WHERE target_id = ${to}::uuid AND expires_at > now()`;
  if (inbox!.mine >= 1) throw waiting('You already have a challenge waiting for this player');
  if (inbox!.address >= caps.toPlayerPerAddress) throw waiting('This player already has challenges waiting from your address; try again once they answer');
  if (inbox!.total >= caps.toPlayer) throw waiting('This player has as many challenges waiting as they take; try again later');
}
