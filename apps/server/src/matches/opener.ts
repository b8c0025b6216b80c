import { newGame } from '@oanquan/rules';
import { ErrorCode, type Hand, type MatchEvent, type Seat } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { asJson } from '../rooms/room-service.js';
import { clocksOnWire, startClocks } from '../match-records/clock.js';
import { openerDeadline, openRound, rulesOf, type MatchRow } from '../match-records/match-store.js';

const BEATS: Record<Hand, Hand> = { rock: 'scissors', paper: 'rock', scissors: 'paper' };

export type RoundRow = MatchRow['rounds'][number];

/** Rock–paper–scissors: the seat whose hand wins, or null for a tie (the round is replayed). */
export function roundWinner(hand0: Hand, hand1: Hand): Seat | null {
  if (hand0 === hand1) return null;
  return BEATS[hand0] === hand1 ? 0 : 1;
}

/** One hand worked out against a match row, not yet committed. */
export interface HandDecision {
  events: MatchEvent[];
  /** The round as it stands after the hand; `opened` when this hand is its first. */
  round: RoundRow;
  opened: boolean;
  /** The match's columns that change: the start of play, once someone has won the toss. */
  update: Prisma.MatchUpdateManyMutationInput;
  /** The match row after the hand, at its new version, with the round among its rounds. */
  next: MatchRow;
}

export interface OpenerTimes {
  openerTimeoutMs: number;
  firstMoveTimeoutMs: number;
}

/**
 * The hand `choice` of `seat` against `match`, in the fixed order of checks
 * (phase, a hand already in); 'lapsed' when the open round's deadline has
 * passed, which the forfeit decides instead. Touches nothing; throws the refusal.
 */
export function decideHand(match: MatchRow, seat: Seat, choice: Hand, now: Date, times: OpenerTimes): HandDecision | 'lapsed' {
  if (match.status !== 'opener') throw new ServiceError(ErrorCode.NotInOpener, 'The opener is not being played');
  const open = openRound(match);
  if (open?.[seat === 0 ? 'choice0' : 'choice1'] != null) throw new ServiceError(ErrorCode.AlreadyChosen, 'You have already chosen this round');
  // Too late: the one who chose in time has won the toss, whatever the sweeper's timing.
  const deadline = openerDeadline(match, times.openerTimeoutMs);
  if (open && deadline && deadline <= now) return 'lapsed';
  const mine = seat === 0 ? { choice0: choice } : { choice1: choice };
  if (!open) {
    const round = (match.rounds.at(-1)?.round ?? 0) + 1;
    const deadlineAt = new Date(now.getTime() + times.openerTimeoutMs).toISOString();
    const opened = { matchId: match.id, round, choice0: null, choice1: null, winner: null, createdAt: now, decidedAt: null, ...mine };
    return withNext(match, { events: [{ type: 'opener-chosen', seat, round, deadline: deadlineAt }], round: opened, opened: true, update: {} });
  }
  const other = open[seat === 0 ? 'choice1' : 'choice0'] as Hand;
  const choices: [Hand, Hand] = seat === 0 ? [choice, other] : [other, choice];
  const winner = roundWinner(choices[0], choices[1]);
  const events: MatchEvent[] = [
    { type: 'opener-chosen', seat, round: open.round, deadline: null },
    { type: 'opener-round', round: open.round, choices, winner },
  ];
  const round = { ...open, ...mine, winner, decidedAt: now };
  if (winner === null) return withNext(match, { events, round, opened: false, update: {} });
  const start = startPlaying(match, winner, now, times.firstMoveTimeoutMs);
  return withNext(match, { events: [...events, start.event], round, opened: false, update: start.update });
}

/**
 * design.md: on timeout a player who chose wins the toss. Null until the open
 * round's deadline has passed. The round is decided as it stands (one hand in).
 */
export function decideForfeit(match: MatchRow, now: Date, times: OpenerTimes): Omit<HandDecision, 'next'> | null {
  const deadline = openerDeadline(match, times.openerTimeoutMs);
  const open = openRound(match);
  if (!deadline || !open || deadline > now) return null;
  const winner: Seat = open.choice0 !== null ? 0 : 1;
  const start = startPlaying(match, winner, now, times.firstMoveTimeoutMs);
  return {
    events: [{ type: 'opener-forfeit', round: open.round, winner }, start.event],
    round: { ...open, winner, decidedAt: now },
    opened: false,
    update: start.update,
  };
}

function withNext(match: MatchRow, decided: Omit<HandDecision, 'next'>): HandDecision {
  const { round } = decided;
  const rounds = decided.opened ? [...match.rounds, round] : match.rounds.map((r) => (r.round === round.round ? round : r));
  return { ...decided, next: { ...match, ...decided.update, rounds, version: match.version + decided.events.length } as MatchRow };
}

/**
 * The opener is decided: the winner moves first, within `firstMoveTimeoutMs`
 * or the match is aborted; the clocks are set but run only from that move.
 */
export function startPlaying(match: MatchRow, first: Seat, now: Date, firstMoveTimeoutMs: number): { event: MatchEvent; update: Prisma.MatchUpdateManyMutationInput } {
  const clocks = startClocks(match.room);
  const firstMoveDeadline = new Date(now.getTime() + firstMoveTimeoutMs);
  return {
    event: { type: 'started', first, clocks: clocks && clocksOnWire(clocks, match.room, first, now), firstMoveDeadline: firstMoveDeadline.toISOString() },
    update: {
      status: 'playing',
      first,
      startedAt: now,
      firstMoveDeadline,
      position: asJson(newGame({ rules: rulesOf(match), first }).position),
      ...clocks,
    },
  };
}
