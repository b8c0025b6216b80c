import { newGame } from '@oanquan/rules';
import { ErrorCode, type MatchEvent, type Seat } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { asJson } from '../rooms/room-service.js';
import { rulesOf, type MatchRow } from './match-store.js';

/** One seat's rematch worked out: nothing to do, an offer, or the acceptance of the other's offer (a new match follows). */
export type RematchDecision = null | { events: MatchEvent[]; offer: { rematch0: true } | { rematch1: true }; accepts: boolean };

/** Offer, or accept the other's offer, once the match has ended; asking again changes nothing. Throws the refusal. */
export function decideRematch(match: Pick<MatchRow, 'status' | 'nextMatchId' | 'rematch0' | 'rematch1'>, seat: Seat): RematchDecision {
  if (match.status !== 'ended') throw new ServiceError(ErrorCode.NotAllowedNow, 'A rematch is offered once the match has ended');
  if (match.nextMatchId || (seat === 0 ? match.rematch0 : match.rematch1)) return null;
  return {
    events: [{ type: 'rematch-offered', seat }],
    offer: seat === 0 ? { rematch0: true } : { rematch1: true },
    accepts: seat === 0 ? match.rematch1 : match.rematch0,
  };
}

/** The next match of the room: same seats, rules and rating, starting with the opener. */
export function nextMatchData(match: MatchRow) {
  return {
    roomId: match.roomId,
    number: match.number + 1,
    status: 'opener' as const,
    rules: asJson(rulesOf(match)),
    rated: match.rated,
    // A rematch after a rated pairing opens a new one (its first game, with the opener).
    pairGame: match.pairGame === null ? null : 1,
    player0Id: match.player0Id,
    player1Id: match.player1Id,
    position: asJson(newGame({ rules: rulesOf(match) }).position),
  } satisfies Prisma.MatchUncheckedCreateInput;
}

/** The row the database holds for a new match made from `data`, as Prisma would read it back (its defaults filled in). */
export function newMatchRow(match: MatchRow, id: string, createdAt: Date): MatchRow {
  const data = nextMatchData(match);
  return {
    ...data,
    id,
    rules: data.rules as MatchRow['rules'],
    position: data.position as MatchRow['position'],
    first: null,
    version: 0,
    winner: null,
    endReason: null,
    score0: null,
    score1: null,
    ratedAt: null,
    ratingChanges: null,
    pairFirstWinner: null,
    pairStart: null,
    clock0Ms: null,
    clock1Ms: null,
    turnStartedAt: null,
    clockDeadline: null,
    firstMoveDeadline: null,
    absent0Since: null,
    absent1Since: null,
    rematch0: false,
    rematch1: false,
    nextMatchId: null,
    createdAt,
    startedAt: null,
    endedAt: null,
    room: match.room,
    player0: match.player0,
    player1: match.player1,
    rounds: [],
  };
}
