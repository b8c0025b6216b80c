import { ErrorCode, ratingStakes, returnGameStakes, type Glicko, type MatchEvent, type MatchResult, type RatingStakes, type Seat } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { otherSeat } from '../matches/match-end.js';
import { envelopesOf, type MatchRow, type Tx } from '../matches/match-store.js';
import { startPlaying } from '../matches/opener.js';
import { nextMatchData } from '../matches/rematch.js';

/**
 * Rated play is a pairing of two games with the first move swapped. Under
 * the classic rules strong play wins for whoever moves first (the engine's
 * level 8 scores 100 % as first mover in `pnpm bench`), so one rated game
 * would let the rock–paper–scissors toss decide the rating. The toss still
 * decides who starts the first game; its return game starts at once when the
 * first was rated, the other player moving first. So winning the toss gains
 * nothing by construction.
 *
 * Each game's end shows its change, but the two results are one rating period: the return game's end rates both
 * games at once from both players' states before the pair (`pairStart`),
 * replacing what game 1 applied, so the order of the results changes
 * nothing (rated one after the other, the toss winner of two new players
 * who win one game each would end 134 points below the other).
 *
 * Neither player can walk away from the return game with a first game won on
 * the toss: it cannot be aborted, a lapsed first move loses it on time, and
 * it counts for rating however short (see `countsForRating`).
 */
export const FIRST_GAME = 1;
export const RETURN_GAME = 2;

export function isReturnGame(match: { pairGame: number | null }): boolean {
  return match.pairGame === RETURN_GAME;
}

/** What a match knows of its pair: which game it is and, on a return game, how the pair started. */
export type PairedMatch = Pick<MatchRow, 'pairGame' | 'pairFirstWinner' | 'pairStart'>;

/**
 * What each result would make of `seat`'s rating, from both seats' states
 * now (`current`): one game's period, or on a return game the pair's.
 */
export function seatStakes(match: PairedMatch, seat: Seat, current: readonly [Glicko, Glicko]): RatingStakes {
  const other: Seat = otherSeat(seat);
  const start = match.pairStart as [Glicko, Glicko] | null;
  if (!isReturnGame(match) || !start) return ratingStakes(current[seat], current[other]);
  const firstScore = match.pairFirstWinner === null ? 0.5 : match.pairFirstWinner === seat ? 1 : 0;
  return returnGameStakes(start[seat], start[other], firstScore);
}

/** What a lapsed first move does: it aborts a match, but loses a return game for the one who was to start it. */
export function lapsedFirstMove(match: Pick<MatchRow, 'pairGame' | 'first'>): MatchResult {
  if (isReturnGame(match) && (match.first === 0 || match.first === 1)) return { winner: otherSeat(match.first), reason: 'timeout', score: null };
  return { winner: null, reason: 'abort', score: null };
}

export function refuseAbortOfReturnGame(match: { pairGame: number | null }): void {
  if (isReturnGame(match)) {
    throw new ServiceError(ErrorCode.NotAllowedNow, 'The return game of a rated pairing cannot be aborted: each player moves first once');
  }
}

/**
 * When a rated pairing's first game has just been rated: its return game,
 * made in the transaction that ends the first, already started with the
 * other seat to move (no opener), and the `rematch` event that sends both
 * players there. Null otherwise (an unrated ending, a match outside pairings).
 */
export async function returnGameAfter(
  tx: Tx,
  match: MatchRow,
  result: MatchResult,
  rated: { before: [Glicko, Glicko] } | null,
  now: Date,
  firstMoveTimeoutMs: number,
): Promise<{ event: MatchEvent; update: Prisma.MatchUpdateManyMutationInput } | null> {
  if (match.pairGame !== FIRST_GAME || rated === null || (match.first !== 0 && match.first !== 1)) return null;
  const first: Seat = otherSeat(match.first);
  const start = startPlaying(match, first, now, firstMoveTimeoutMs);
  const created = await tx.match.create({
    data: {
      ...nextMatchData(match),
      ...(start.update as Partial<Prisma.MatchUncheckedCreateInput>),
      version: 1,
      pairGame: RETURN_GAME,
      pairFirstWinner: result.winner,
      pairStart: rated.before as unknown as Prisma.InputJsonValue,
    },
  });
  const [started] = envelopesOf({ id: created.id, version: 0 }, [start.event], now);
  await tx.matchEvent.create({ data: { matchId: created.id, version: 1, payload: started as unknown as Prisma.InputJsonValue, createdAt: now } });
  return { event: { type: 'rematch', matchId: created.id }, update: { nextMatchId: created.id } };
}
