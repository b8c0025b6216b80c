import type { MatchResult, Rating, RatingChanges, Seat } from '@oanquan/protocol';
import type { Tx } from '../matches/match-store.js';
import { PROVISIONAL_DEVIATION, updateGlicko, type Glicko } from './glicko2.js';

export function ratingOf(player: Glicko): Rating {
  return { ...player, provisional: player.deviation > PROVISIONAL_DEVIATION };
}

/**
 * Updates both players' Glicko-2 ratings when a rated match ends, in the
 * transaction that ends it, so a result and its rating change land together.
 * An aborted match changes nothing. Answers the change it applied to each
 * seat, for the `ended` event and the record; null when nothing was rated.
 */
export async function rateEndedMatch(
  tx: Tx,
  match: { rated: boolean; player0Id: string | null; player1Id: string | null },
  result: MatchResult,
): Promise<RatingChanges> {
  if (!match.rated || result.reason === 'abort' || !match.player0Id || !match.player1Id) return null;
  const ids = [match.player0Id, match.player1Id] as const;
  const rows = await tx.player.findMany({ where: { id: { in: [...ids] } } });
  const [p0, p1] = ids.map((id) => rows.find((row) => row.id === id)!);
  const score = (seat: Seat) => (result.winner === null ? 0.5 : result.winner === seat ? 1 : 0);
  const next0 = updateGlicko(p0!, [{ opponent: p1!, score: score(0) }]);
  const next1 = updateGlicko(p1!, [{ opponent: p0!, score: score(1) }]);
  await tx.player.update({ where: { id: ids[0] }, data: { ...next0, ratedGames: { increment: 1 } } });
  await tx.player.update({ where: { id: ids[1] }, data: { ...next1, ratedGames: { increment: 1 } } });
  return [
    { before: p0!.rating, after: next0.rating },
    { before: p1!.rating, after: next1.rating },
  ];
}
