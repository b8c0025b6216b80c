import type { Rating } from '@oanquan/protocol';
import { ratingStakes } from '@oanquan/protocol/glicko2';
import { ratingDeltaText } from './score-text.js';

/** What a win, a draw and a loss would change in one player's rating, as the end screen writes a change ("+9", "±0", "−9"). */
export interface StakeTexts {
  win: string;
  draw: string;
  loss: string;
}

/**
 * Each seat's stakes in a rated match, from both players' ratings through the
 * function the server rates the ending with; null for a seat while a rating
 * is unknown, and for both in a casual match.
 */
export function seatStakes(rated: boolean, ratings: readonly [Rating | null, Rating | null]): readonly [StakeTexts | null, StakeTexts | null] {
  const of = (player: Rating | null, opponent: Rating | null): StakeTexts | null => {
    if (!rated || !player || !opponent) return null;
    const after = ratingStakes(player, opponent);
    return {
      win: ratingDeltaText(player.rating, after.win.rating),
      draw: ratingDeltaText(player.rating, after.draw.rating),
      loss: ratingDeltaText(player.rating, after.loss.rating),
    };
  };
  return [of(ratings[0], ratings[1]), of(ratings[1], ratings[0])];
}
