import { newGame, type State } from '@oanquan/rules';
import type { Clocks, MatchEvent, MatchEventEnvelope, MatchSnapshot } from '@oanquan/protocol';
import { followMove, type FollowedMove } from '@oanquan/protocol/moved';
import { countsFrom } from './clock.js';

/** A match as a client holds it: the snapshot, and the rules state of its position (R4.5 counts along the whole line of play). */
export interface Held {
  readonly snapshot: MatchSnapshot;
  readonly game: State;
}

/** After an event: and, for a move, the ply as the rules played it (the sowing to show, the words to say). */
export interface Applied extends Held {
  readonly ply: FollowedMove | null;
}

/**
 * What one event, applied in version order, makes of what is held
 * (design.md "One move, end to end", step 7). A move carries only itself:
 * the rules play it on the held state. Null when they refuse it there, which
 * only a client that lost track sees: a snapshot must replace what it holds.
 * Pure: the caller keeps the order and asks the server for anything missing.
 */
export function applyEvent({ snapshot, game }: Held, envelope: MatchEventEnvelope): Applied | null {
  const { event } = envelope;
  if (event.type === 'moved') {
    const ply = followMove(game, event);
    if (!ply) return null;
    const moves = [...snapshot.moves, ply.move];
    return { snapshot: { ...snapshot, version: envelope.version, moves, position: ply.state.position, clocks: event.clocks, firstMoveDeadline: null }, game: ply.state, ply };
  }
  if (event.type === 'started') {
    const started = newGame({ rules: snapshot.rules, first: event.first });
    const { first, clocks, firstMoveDeadline } = event;
    return { snapshot: { ...snapshot, version: envelope.version, status: 'playing', first, position: started.position, clocks, firstMoveDeadline }, game: started, ply: null };
  }
  return { snapshot: applyOther({ ...snapshot, version: envelope.version }, event, envelope.at), game, ply: null };
}

/** The snapshot after any event but a move or the start, which change the game. */
function applyOther(next: MatchSnapshot, event: Exclude<MatchEvent, { type: 'moved' | 'started' }>, at: string): MatchSnapshot {
  switch (event.type) {
    case 'seated': {
      const seats: MatchSnapshot['seats'] = event.seat === 0 ? [event.player, next.seats[1]] : [next.seats[0], event.player];
      const status = seats[0] && seats[1] && next.status === 'waiting' ? 'opener' : next.status;
      return { ...next, seats, status };
    }
    case 'opener-chosen': {
      const chosen: [boolean, boolean] = [next.opener.chosen[0], next.opener.chosen[1]];
      chosen[event.seat] = true;
      return { ...next, opener: { ...next.opener, chosen, deadline: event.deadline } };
    }
    case 'opener-round': {
      const { round, choices, winner } = event;
      return { ...next, opener: { rounds: [...next.opener.rounds, { round, choices, winner }], chosen: [false, false], deadline: null } };
    }
    case 'opener-forfeit':
      return { ...next, opener: { ...next.opener, chosen: [false, false], deadline: null } };
    case 'ended':
      return { ...next, status: 'ended', result: event.result, ratings: event.ratings, clocks: stoppedClocks(next.clocks, at), firstMoveDeadline: null };
    case 'rematch-offered': {
      const offered: [boolean, boolean] = [next.rematch.offered[0], next.rematch.offered[1]];
      offered[event.seat] = true;
      return { ...next, rematch: { ...next.rematch, offered } };
    }
    case 'rematch':
      return { ...next, rematch: { ...next.rematch, matchId: event.matchId } };
    case 'outage-credited':
      return { ...next, clocks: event.clocks, firstMoveDeadline: event.firstMoveDeadline, opener: { ...next.opener, deadline: event.openerDeadline } };
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
