import { ratingStakes, returnGameStakes, type Glicko, type RatingStakes, type Seat } from '@oanquan/protocol';

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
export interface PairedMatch {
  pairGame: number | null;
  pairFirstWinner: number | null;
  pairStart: unknown;
}

/**
 * What each result would make of `seat`'s rating, from both seats' states
 * now (`current`): one game's period, or on a return game the pair's.
 */
export function seatStakes(match: PairedMatch, seat: Seat, current: readonly [Glicko, Glicko]): RatingStakes {
  const other = (1 - seat) as Seat;
  const start = match.pairStart as [Glicko, Glicko] | null;
  if (!isReturnGame(match) || !start) return ratingStakes(current[seat], current[other]);
  const firstScore = match.pairFirstWinner === null ? 0.5 : match.pairFirstWinner === seat ? 1 : 0;
  return returnGameStakes(start[seat], start[other], firstScore);
}
