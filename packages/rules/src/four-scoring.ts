// R10.7 Scoring with four players, and R10.8 the team score: each player
// collects their own row, the mandarin squares' dân are shared out in
// quarters, debts are settled between the players they bind, and places are
// ranked with ties sharing a place.

import type { Seat } from './four-board.js';
import type { Four, FourPosition, FourResult } from './four-position.js';
import type { EndReason } from './position.js';

/** R10.7 for the board as it stands. */
export function fourScoreOf(position: Pick<FourPosition, 'squares' | 'captured' | 'debt'>, quanValue: number): Four<number> {
  const { squares: s, captured, debt } = position;
  // R10.7: one sum over the four mandarin squares, divided by four and
  // rounded down; the remainder counts for nobody.
  const share = Math.floor((s[0]! + s[6]! + s[12]! + s[18]!) / 4);
  const score = (p: Seat): number => {
    const first = 6 * p + 1;
    const row = s[first]! + s[first + 1]! + s[first + 2]! + s[first + 3]! + s[first + 4]!;
    let owes = 0;
    let owed = 0;
    for (let q = 0; q < 4; q++) {
      owes += debt[p][q]!;
      owed += debt[q]![p]!;
    }
    return captured[p].dan + quanValue * captured[p].quan + row + share - owes + owed;
  };
  return [score(0), score(1), score(2), score(3)];
}

/** R10.7: each player's place, 1 the best; equal scores share a place and the places after it are skipped. */
export function rankingOf(score: Four<number>): Four<number> {
  const place = (p: number): number => 1 + score.filter((other) => other > score[p]!).length;
  return [place(0), place(1), place(2), place(3)];
}

export function fourResultOf(position: Pick<FourPosition, 'squares' | 'captured' | 'debt'>, quanValue: number, teams: boolean, reason: EndReason): FourResult {
  const score = fourScoreOf(position, quanValue);
  const ranking = rankingOf(score);
  const firsts = ranking.flatMap((place, p) => (place === 1 ? [p as Seat] : []));
  const winner = firsts.length === 1 ? firsts[0]! : null;
  if (!teams) return { reason, score, ranking, winner };
  // R10.8: team 0 is players 0 and 2, team 1 players 1 and 3.
  const teamScore: [number, number] = [score[0] + score[2], score[1] + score[3]];
  const winningTeam = teamScore[0] > teamScore[1] ? 0 : teamScore[1] > teamScore[0] ? 1 : null;
  return { reason, score, ranking, winner, teamScore, winningTeam };
}
