import { ErrorCode, type MatchResult, type PublicPlayer, type Seat } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import { remainingAt } from '../match-records/clock.js';
import { openRound, positionOf, runningSeat, type MatchRow } from '../match-records/match-store.js';
import { requireSeat, unchanged, type Decision } from './decision.js';
import { ending, otherSeat } from './match-end.js';
import { lapsedFirstMove, refuseAbortOfReturnGame } from './return-game.js';

/** How a player asks to end a match: the result it would have, or the refusal. */
export type EndRequest = (match: MatchRow, seat: Seat, now: Date) => MatchResult;

/** The player gives up; the opponent wins. Any time in play. */
export const resignation: EndRequest = (match, seat) => {
  if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
  return { winner: otherSeat(seat), reason: 'resign', score: null };
};

/** Called off before its first move: no result. */
export const abortion: EndRequest = (match) => {
  const moved = positionOf(match).ply > 0;
  if (match.status === 'ended' || moved) throw new ServiceError(ErrorCode.NotAllowedNow, 'A match can only be aborted before its first move');
  refuseAbortOfReturnGame(match);
  return { winner: null, reason: 'abort', score: null };
};

/** The opponent has been gone since `claimableAt` says (see PresenceService): the present player takes the win once that has passed. */
export function claimOf(claimableAt: (match: MatchRow, seat: Seat) => Date | null): EndRequest {
  return (match, seat, now) => {
    if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
    const since = claimableAt(match, otherSeat(seat));
    if (!since || since > now) throw new ServiceError(ErrorCode.NotAllowedNow, 'Your opponent has not been gone long enough');
    return { winner: seat, reason: 'abandon', score: null };
  };
}

/**
 * Ends a match the way `request` says, for a player who holds a seat (that
 * is checked first, whatever else holds), unless the match is already
 * overdue: then it ends as the sweeper would have a moment later.
 */
export function decideEnd(match: MatchRow, player: PublicPlayer, request: EndRequest, now: Date): Decision<null> {
  const seat = requireSeat(match, player.id);
  const end = ending(match, overdue(match, now) ?? request(match, seat, now), now);
  return { result: null, events: [end.event], update: end.update };
}

/** A running clock that ran out, or a first move overdue, ends the match; otherwise nothing changes. */
export function decideExpiry(match: MatchRow, now: Date): Decision<null> {
  const result = overdue(match, now);
  if (!result) return unchanged(null);
  const end = ending(match, result, now);
  return { result: null, events: [end.event], update: end.update };
}

/**
 * Both players gone longer than `graceMs`: nobody is left to claim, so the
 * match ends by itself. Before the first move (the opener included) it is
 * aborted; after it, abandoned with no winner. Neither is rated. A clock
 * that ran out meanwhile still ends it by timeout.
 */
export function decideAbandoned(match: MatchRow, now: Date, graceMs: number): Decision<null> {
  const cutoff = now.getTime() - graceMs;
  const gone = [match.absent0Since, match.absent1Since].every((since) => since !== null && since.getTime() <= cutoff);
  if (!gone || (match.status !== 'opener' && match.status !== 'playing')) return unchanged(null);
  const moved = match.status === 'playing' && positionOf(match).ply > 0;
  const end = ending(match, overdue(match, now) ?? { winner: null, reason: moved ? 'abandon' : 'abort', score: null }, now);
  return { result: null, events: [end.event], update: end.update };
}

/**
 * An opener in which nobody has chosen a hand for `timeoutMs` since it began
 * (or since its last tied round), `lastActivity` being the later of the
 * match's making and its latest event: aborted, unrated, as a first move
 * never made is. Without it two players who sit and never choose would hold
 * the match (and any arena it belongs to) open forever. A round one of them
 * opened is the opener timeout's to decide instead.
 */
export function decideIdleOpener(match: MatchRow, lastActivity: Date, now: Date, timeoutMs: number): Decision<null> {
  if (match.status !== 'opener' || openRound(match) || lastActivity.getTime() + timeoutMs > now.getTime()) return unchanged(null);
  const end = ending(match, { winner: null, reason: 'abort', score: null }, now);
  return { result: null, events: [end.event], update: end.update };
}

/** What ends a match without anyone asking: a lapsed first move aborts it (loses a return game), a clock that ran out loses it. */
export function overdue(match: MatchRow, now: Date): MatchResult | null {
  if (firstMoveLapsed(match, now)) return lapsedFirstMove(match);
  return flagged(match, now);
}

export function firstMoveLapsed(match: MatchRow, now: Date): boolean {
  return match.status === 'playing' && positionOf(match).ply === 0 && match.firstMoveDeadline !== null && match.firstMoveDeadline <= now;
}

/** The timeout result when the running clock has run out, else null. */
function flagged(match: MatchRow, now: Date): MatchResult | null {
  const running = runningSeat(match);
  if (running === null || match.clock0Ms === null || remainingAt(match, running, running, now) > 0) return null;
  return { winner: otherSeat(running), reason: 'timeout', score: null };
}
