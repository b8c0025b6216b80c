import { ErrorCode, type MatchEvent, type Seat } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { seatOf, type MatchRow } from '../match-records/match-store.js';

/** The columns of the match row a change writes, beside its version. */
export type MatchUpdate = Prisma.MatchUpdateManyMutationInput;

/**
 * What a change decided against a match row, before anything is stored: the
 * answer for the caller, the events to append (none: nothing changes) and the
 * columns they change.
 */
export interface Decision<R> {
  result: R;
  events: MatchEvent[];
  update?: MatchUpdate;
}

export function unchanged<R>(result: R): Decision<R> {
  return { result, events: [] };
}

/** The seat the player holds, or the refusal of someone who only watches. */
export function requireSeat(match: Pick<MatchRow, 'player0Id' | 'player1Id'>, playerId: string): Seat {
  const seat = seatOf(match, playerId);
  if (seat === null) throw new ServiceError(ErrorCode.NotAPlayer, 'You are watching this match, not playing it', 403);
  return seat;
}

/**
 * A decision tried against a row that may be behind: its refusal is not
 * final, since the row the transaction reads might not confirm it, so it
 * answers undefined and the transaction decides.
 */
export function unlessRefused<T>(decide: () => T): T | undefined {
  try {
    return decide();
  } catch (error) {
    if (error instanceof ServiceError) return undefined;
    throw error;
  }
}
