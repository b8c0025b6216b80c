import { newGame } from '@oanquan/rules';
import type { Clocks, MatchEventEnvelope, MatchSnapshot } from '@oanquan/protocol';
import { countsFrom } from './clock.js';

/**
 * The snapshot after one event, applied in version order (design.md "One
 * move, end to end", step 7). Pure: the caller keeps the order and asks the
 * server for anything missing.
 */
export function applyEvent(snapshot: MatchSnapshot, envelope: MatchEventEnvelope): MatchSnapshot {
  const next = { ...snapshot, version: envelope.version };
  const { event } = envelope;
  switch (event.type) {
    case 'seated': {
      const seats: MatchSnapshot['seats'] = event.seat === 0 ? [event.player, snapshot.seats[1]] : [snapshot.seats[0], event.player];
      const status = seats[0] && seats[1] && snapshot.status === 'waiting' ? 'opener' : snapshot.status;
      return { ...next, seats, status };
    }
    case 'opener-chosen': {
      const chosen: [boolean, boolean] = [snapshot.opener.chosen[0], snapshot.opener.chosen[1]];
      chosen[event.seat] = true;
      return { ...next, opener: { ...snapshot.opener, chosen, deadline: event.deadline } };
    }
    case 'opener-round': {
      const { round, choices, winner } = event;
      return { ...next, opener: { rounds: [...snapshot.opener.rounds, { round, choices, winner }], chosen: [false, false], deadline: null } };
    }
    case 'opener-forfeit':
      return { ...next, opener: { ...snapshot.opener, chosen: [false, false], deadline: null } };
    case 'started':
      return {
        ...next,
        status: 'playing',
        first: event.first,
        position: newGame({ rules: snapshot.rules, first: event.first }).position,
        clocks: event.clocks,
        firstMoveDeadline: event.firstMoveDeadline,
      };
    case 'moved':
      return { ...next, moves: [...snapshot.moves, event.move], position: event.position, clocks: event.clocks, firstMoveDeadline: null };
    case 'ended':
      return { ...next, status: 'ended', result: event.result, ratings: event.ratings, clocks: stoppedClocks(snapshot.clocks, envelope.at), firstMoveDeadline: null };
    case 'rematch-offered': {
      const offered: [boolean, boolean] = [snapshot.rematch.offered[0], snapshot.rematch.offered[1]];
      offered[event.seat] = true;
      return { ...next, rematch: { ...snapshot.rematch, offered } };
    }
    case 'rematch':
      return { ...next, rematch: { ...snapshot.rematch, matchId: event.matchId } };
    case 'outage-credited':
      return { ...next, clocks: event.clocks, firstMoveDeadline: event.firstMoveDeadline, opener: { ...snapshot.opener, deadline: event.openerDeadline } };
  }
}

/** The clocks as they stood when the match ended at `at`. */
export function stoppedClocks(clocks: Clocks | null, at: string): Clocks | null {
  if (!clocks || clocks.running === null) return clocks;
  // A clock still in its sowing allowance had not started.
  const elapsed = Math.max(0, Date.parse(at) - countsFrom(clocks, 0));
  const remaining: [number, number] = [clocks.remainingMs[0], clocks.remainingMs[1]];
  remaining[clocks.running] = Math.max(0, remaining[clocks.running] - elapsed);
  return { remainingMs: remaining, running: null, asOf: at };
}
