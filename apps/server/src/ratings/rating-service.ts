import { PROVISIONAL_DEVIATION, type Glicko, type MatchResult, type Rating, type RatingChanges, type RatingStakes, type Seat } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { isReturnGame, seatStakes, type PairedMatch } from './rated-pairing.js';

// Picked field by field: handed a whole player row, a spread would publish its password hash.
export function ratingOf({ rating, deviation, volatility }: Glicko): Rating {
  return { rating, deviation, volatility, provisional: deviation > PROVISIONAL_DEVIATION };
}

/** Fewer moves than this from each side and a match is not rated: an early resign or abort proves nothing. */
export const MIN_MOVES_PER_SIDE = 2;
/**
 * Two players are rated against each other at most this many times per
 * window (two pairings, see rated-pairing.ts); further matches are casual.
 */
export const RATED_GAMES_PER_PAIR = 4;
export const PAIR_WINDOW_MS = 24 * 3600 * 1000;
/** Class of the advisory lock that serializes the rated endings of one pair (its two-key form has a space of its own). */
const PAIR_LOCK_CLASS = 7_300_501;

/**
 * Whether an ending says anything about strength: no abort, no match both
 * left, enough moves from each side. A return game counts however short:
 * its first game counted, and resigning it at once must not keep a first
 * game won on the toss.
 */
export function countsForRating(result: MatchResult, plies: number, returnGame = false): boolean {
  if (result.reason === 'abort' || (result.reason === 'abandon' && result.winner === null)) return false;
  return returnGame || plies >= 2 * MIN_MOVES_PER_SIDE;
}

/** Whether a whole pairing (two more rated games) still fits in the pair's RATED_GAMES_PER_PAIR in PAIR_WINDOW_MS. */
export async function pairMayBeRated(tx: Tx, ids: readonly [string, string], now: Date): Promise<boolean> {
  const recent = await tx.match.count({
    where: {
      ratedAt: { gt: new Date(now.getTime() - PAIR_WINDOW_MS) },
      OR: [
        { player0Id: ids[0], player1Id: ids[1] },
        { player0Id: ids[1], player1Id: ids[0] },
      ],
    },
  });
  return recent + 2 <= RATED_GAMES_PER_PAIR;
}

/** A rated ending: the change applied to each seat, and both seats' states before it. */
export interface RatedEnding {
  changes: NonNullable<RatingChanges>;
  before: [Glicko, Glicko];
}

/**
 * Updates both players' Glicko-2 ratings when a rated match ends, in the
 * transaction that ends it, so a result and its rating change land together,
 * and marks the match `ratedAt`. Only queue matches are rated (friend rooms
 * cannot be), and of those only the ones `countsForRating` accepts, up to
 * RATED_GAMES_PER_PAIR per pair in PAIR_WINDOW_MS, a pairing counted whole: so neither throw-away
 * opponents who resign at once nor one accomplice played again and again can
 * farm a rating. A pair's return game rates the pair as one period (see `seatStakes`).
 * Answers the change it applied to each seat, for the `ended` event and the
 * record; null when nothing was rated.
 */
export async function rateEndedMatch(
  tx: Tx,
  match: PairedMatch & { id: string; rated: boolean; player0Id: string | null; player1Id: string | null },
  result: MatchResult,
  plies: number,
  now: Date,
): Promise<RatedEnding | null> {
  if (!match.rated || !match.player0Id || !match.player1Id || !countsForRating(result, plies, isReturnGame(match))) return null;
  const ids = [match.player0Id, match.player1Id] as const;
  // Two matches of one pair ending at once on two processes must not both see a free slot.
  const pairKey = [...ids].sort().join(':');
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${PAIR_LOCK_CLASS}::int4, hashtext(${pairKey}))`;
  // A return game's place was kept when its first game was rated.
  if (!isReturnGame(match) && !(await pairMayBeRated(tx, ids, now))) return null;
  const rows = await tx.player.findMany({ where: { id: { in: [...ids] } } });
  const before = ids.map((id) => rows.find((row) => row.id === id)!).map(({ rating, deviation, volatility }) => ({ rating, deviation, volatility })) as [Glicko, Glicko];
  const outcome = (seat: Seat): keyof RatingStakes => (result.winner === null ? 'draw' : result.winner === seat ? 'win' : 'loss');
  const next0 = seatStakes(match, 0, before)[outcome(0)];
  const next1 = seatStakes(match, 1, before)[outcome(1)];
  await tx.player.update({ where: { id: ids[0] }, data: { ...next0, ratedGames: { increment: 1 } } });
  await tx.player.update({ where: { id: ids[1] }, data: { ...next1, ratedGames: { increment: 1 } } });
  await tx.match.update({ where: { id: match.id }, data: { ratedAt: now } });
  return {
    changes: [
      { before: before[0].rating, after: next0.rating },
      { before: before[1].rating, after: next1.rating },
    ],
    before,
  };
}
