import type { MatchSnapshot, Rating } from '@oanquan/protocol';
import { ratingStakes, returnGameStakes } from '@oanquan/protocol/glicko2';
import { ratingDeltaText } from './score-text.js';

/** What a win, a draw and a loss would change in one player's rating, as the end screen writes a change ("+9", "±0", "−9"). */
export interface StakeTexts {
  win: string;
  draw: string;
  loss: string;
}

type FirstGame = NonNullable<NonNullable<MatchSnapshot['pairing']>['firstGame']>;

/**
 * Each seat's stakes in a rated match, from both players' ratings through the
 * function the server rates the ending with; null for a seat while a rating
 * is unknown, and for both in a casual match. In a rated pair's return game
 * (`firstGame` given) the server rates the pair as one period from the
 * ratings before it, so the stakes are the change from the rating now to that.
 */
export function seatStakes(
  rated: boolean,
  ratings: readonly [Rating | null, Rating | null],
  firstGame: FirstGame | null = null,
): readonly [StakeTexts | null, StakeTexts | null] {
  const of = (seat: 0 | 1): StakeTexts | null => {
    const [player, opponent] = [ratings[seat], ratings[1 - seat]];
    if (!rated || !player || !opponent) return null;
    const firstScore = firstGame && (firstGame.winner === null ? 0.5 : firstGame.winner === seat ? 1 : 0);
    const after = firstGame ? returnGameStakes(firstGame.before[seat], firstGame.before[1 - seat]!, firstScore!) : ratingStakes(player, opponent);
    return {
      win: ratingDeltaText(player.rating, after.win.rating),
      draw: ratingDeltaText(player.rating, after.draw.rating),
      loss: ratingDeltaText(player.rating, after.loss.rating),
    };
  };
  return [of(0), of(1)];
}
