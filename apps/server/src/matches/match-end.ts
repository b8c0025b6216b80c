import type { MatchEvent, MatchResult, RatingChanges, Seat } from '@oanquan/protocol';
import type { Prisma } from '../generated/prisma/client.js';
import { stopClocks } from '../match-records/clock.js';
import { runningSeat, type MatchRow } from '../match-records/match-store.js';

/**
 * How any ending is written: the result, the clocks stopped where they stand,
 * no more deadline, and the `ended` event. Every way a match ends goes
 * through here (rules, resign, timeout, abandonment, abort). The rating
 * change is filled in by `rated` once the ratings have been updated.
 */
export function ending(match: MatchRow, result: MatchResult, now: Date): { event: MatchEvent; update: Prisma.MatchUpdateManyMutationInput } {
  return {
    event: { type: 'ended', result, ratings: null },
    update: {
      status: 'ended',
      winner: result.winner,
      endReason: result.reason,
      score0: result.score?.[0] ?? null,
      score1: result.score?.[1] ?? null,
      endedAt: now,
      ...(match.clock0Ms === null ? {} : stopClocks(match, runningSeat(match), now)),
    },
  };
}

export function otherSeat(seat: Seat): Seat {
  return seat === 0 ? 1 : 0;
}

/** The `ended` event and the row, with the rating change that was applied (null: not rated). */
export function rated(event: Extract<MatchEvent, { type: 'ended' }>, ratings: RatingChanges): { event: MatchEvent; update: Prisma.MatchUpdateManyMutationInput } {
  return { event: { ...event, ratings }, update: ratings ? { ratingChanges: ratings as unknown as Prisma.InputJsonValue } : {} };
}
