// R10.9 with R7.2: how a four-player record states its outcome. R10.9 adds
// only the Players and Teams headers; Result and Score are the closest
// reading of R7.2 for four:
//
// - Score: the four players' R10.7 scores, `s0-s1-s2-s3` (a negative score
//   keeps its sign: `40--2-51-51`).
// - Result with teams (R10.8): team 0 against team 1, as R7.2 writes two
//   sides: `1-0`, `0-1`, `1/2-1/2`.
// - Result free for all: each player's place (R10.7), `1-3-2-4`, since one
//   winner cannot tell four players' outcome.
//
// A match outcome decided outside the rules (R5.4) gives the winning team,
// or with free for all the places, and Score `*`.

import type { Four, FourResult } from './four-position.js';
import { rankingOf } from './four-scoring.js';

/** R5.4 with four: `winner` is a team (R10.8); free for all, `ranking` gives the places. */
export type FourMatchTermination =
  | { readonly reason: string; readonly winner: 0 | 1 | null }
  | { readonly reason: string; readonly ranking: Four<number> };

const SIGNED = '(0|-?[1-9][0-9]*)';
const FOUR_SCORE = new RegExp(`^${SIGNED}-${SIGNED}-${SIGNED}-${SIGNED}$`);
const PLACES = /^[1-4]-[1-4]-[1-4]-[1-4]$/;

export function fourScoreText(result: FourResult): string {
  return result.score.join('-');
}

export function isFourScoreText(text: string): boolean {
  return FOUR_SCORE.test(text);
}

/** The Result of a game the rules ended: the team result with teams, the places free for all. */
export function fourResultText(result: FourResult, teams: boolean, teamResultText: (winner: 0 | 1 | null) => string): string {
  return teams ? teamResultText(result.winningTeam ?? null) : result.ranking.join('-');
}

/**
 * Places written `1-3-2-4`, or null unless they are places some scores give
 * (R10.7: a place is one more than the number of players placed better).
 */
export function parsePlaces(text: string): Four<number> | null {
  if (!PLACES.test(text)) return null;
  const places = text.split('-').map(Number) as unknown as Four<number>;
  // Lower places stand for higher scores; R10.7's ranking of those must give them back.
  const ranked = rankingOf(places.map((place) => -place) as unknown as Four<number>);
  return ranked.every((place, p) => place === places[p]) ? places : null;
}
