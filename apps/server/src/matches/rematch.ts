import { newGame } from '@oanquan/rules';
import { ErrorCode, type MatchEvent, type Seat } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { asJson } from '../rooms/room-service.js';
import { unplayedColumns } from '../match-records/match-row.js';
import { rulesOf, type MatchRow } from '../match-records/match-store.js';

/**
 * One seat's rematch worked out: an offer, or the acceptance of the other's
 * offer with the new match (`created`, under the id `newId`); `after` is the
 * ended match at its new version. Null when there is nothing to do.
 */
export interface RematchDecision {
  events: MatchEvent[];
  update: ({ rematch0: true } | { rematch1: true }) & { nextMatchId: string | null };
  after: MatchRow;
  created: MatchRow | null;
}

/** Offer, or accept the other's offer, once the match has ended; asking again changes nothing. Throws the refusal. */
export function decideRematch(match: MatchRow, seat: Seat, newId: string, now: Date): RematchDecision | null {
  if (match.status !== 'ended') throw new ServiceError(ErrorCode.NotAllowedNow, 'A rematch is offered once the match has ended');
  if (match.nextMatchId || (seat === 0 ? match.rematch0 : match.rematch1)) return null;
  const accepts = seat === 0 ? match.rematch1 : match.rematch0;
  const created = accepts ? newMatchRow(match, newId, now) : null;
  const events: MatchEvent[] = [{ type: 'rematch-offered', seat }];
  if (created) events.push({ type: 'rematch', matchId: created.id });
  const update = { ...(seat === 0 ? { rematch0: true as const } : { rematch1: true as const }), nextMatchId: created?.id ?? null };
  return { events, update, created, after: { ...match, ...update, version: match.version + events.length } };
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
function newMatchRow(match: MatchRow, id: string, createdAt: Date): MatchRow {
  const data = nextMatchData(match);
  return {
    ...data,
    id,
    rules: data.rules as MatchRow['rules'],
    position: data.position as MatchRow['position'],
    ...unplayedColumns,
    createdAt,
    room: match.room,
    player0: match.player0,
    player1: match.player1,
    rounds: [],
  };
}
