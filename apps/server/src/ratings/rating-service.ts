import { PROVISIONAL_DEVIATION, type Glicko, type MatchResult, type Rating, type RatingChanges, type RatingStakes, type Seat } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { FIRST_GAME, isReturnGame, RETURN_GAME, seatStakes, type PairedMatch } from './rated-pairing.js';

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
/** Class of the advisory lock that serializes the rated pairings made for one pair (its two-key form has a space of its own). */
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

/**
 * Whether a new rated pairing (game 1 and its return game) fits in the pair's
 * RATED_GAMES_PER_PAIR in PAIR_WINDOW_MS, asked by whatever creates one (the
 * queue, a challenge, an arena, a rematch) in the transaction that inserts it.
 * A pairing is counted whole from its first game's creation: both its games
 * while game 1 is live or was rated, none once game 1 ended unrated (it has
 * no return game); a rated match from before pairings counts one. The pair's
 * lock, held until that transaction ends, makes the next creation for the
 * same pair, on any process, count this one, so pairings made at once cannot
 * all see the same free room.
 */
export async function pairMayBeRated(tx: Tx, ids: readonly [string, string], now: Date): Promise<boolean> {
  const pairKey = [...ids].sort().join(':');
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${PAIR_LOCK_CLASS}::int4, hashtext(${pairKey}))`;
  const since = new Date(now.getTime() - PAIR_WINDOW_MS);
  const [row] = await tx.$queryRaw<Array<{ games: number }>>`
    SELECT coalesce(sum(CASE WHEN pair_game = ${FIRST_GAME} THEN 2 ELSE 1 END), 0)::int AS games FROM match
    WHERE rated AND pair_game IS DISTINCT FROM ${RETURN_GAME} AND created_at > ${since}
      AND (status <> 'ended' OR rated_at IS NOT NULL)
      AND ((player0_id = ${ids[0]}::uuid AND player1_id = ${ids[1]}::uuid) OR (player0_id = ${ids[1]}::uuid AND player1_id = ${ids[0]}::uuid))`;
  return row!.games + 2 <= RATED_GAMES_PER_PAIR;
}

/** A rated ending: the change applied to each seat, and both seats' states before it. */
export interface RatedEnding {
  changes: NonNullable<RatingChanges>;
  before: [Glicko, Glicko];
}

/**
 * Updates both players' Glicko-2 ratings when a rated match ends, in the
 * transaction that ends it, so a result and its rating change land together,
 * and marks the match `ratedAt`. Only matches made rated are (friend rooms
 * cannot be, and a pair past its limit was made casual: `pairMayBeRated`),
 * and of those only the ones `countsForRating` accepts: so neither throw-away
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
