import { ErrorCode, type Glicko, type MatchEvent, type MatchResult, type Seat } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { envelopesOf, type MatchRow } from '../match-records/match-store.js';
import { FIRST_GAME, isReturnGame, RETURN_GAME } from '../ratings/rated-pairing.js';
import { otherSeat } from './match-end.js';
import { startPlaying } from './opener.js';
import { nextMatchData } from './rematch.js';

// The referee's part of a rated pairing (see ratings/rated-pairing.ts): the return game cannot be dodged.

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
