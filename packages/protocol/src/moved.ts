// A `moved` event carries the move, the clocks and the version; every client
// derives the sowing from the rules (R3–R5), as a chess client derives a
// position from a move. This module is free of zod, so the web client can
// import it (`@oanquan/protocol/moved`) without pulling zod into the page.

import { encodePosition, formatMove, newGame, play, stateFromPosition, type PlyEvent, type State } from '@oanquan/rules';
import type { Seat } from './common.js';
import type { Clocks, MatchEvent, MatchEventEnvelope, MatchSnapshot, PlayedMove } from './match.js';

export type MovedEvent = Extract<MatchEvent, { type: 'moved' }>;

/**
 * Clocks of a move, packed: both remaining times, the running seat, then
 * `asOf` after the envelope's `at` and, when the running clock waits for the
 * sowing allowance, `startsAt` after `asOf`, both in milliseconds.
 */
export type PackedClocks = readonly [number, number, Seat | null, number] | readonly [number, number, Seat | null, number, number];

/** A `moved` envelope as the wire carries it: about a hundred bytes where the envelope's own shape takes over 250. */
export type PackedMove = readonly [matchId: string, version: number, at: number, square: number, dir: 1 | -1, clocks: PackedClocks | null];

/** What `match:event` and `sync` carry: a move packed, any other event as its envelope. */
export type WireEnvelope = MatchEventEnvelope | PackedMove;

export function packEnvelope(envelope: MatchEventEnvelope): WireEnvelope {
  const { event } = envelope;
  if (event.type !== 'moved') return envelope;
  const at = Date.parse(envelope.at);
  return [envelope.matchId, envelope.version, at, event.square, event.dir, event.clocks && packClocks(event.clocks, at)];
}

function packClocks({ remainingMs, running, asOf, startsAt }: Clocks, at: number): PackedClocks {
  const asOfMs = Date.parse(asOf);
  const packed = [remainingMs[0], remainingMs[1], running, asOfMs - at] as const;
  return startsAt === undefined ? packed : [...packed, Date.parse(startsAt) - asOfMs];
}

export function unpackEnvelope(wire: WireEnvelope): MatchEventEnvelope {
  if (!isPacked(wire)) return wire;
  const [matchId, version, at, square, dir, packed] = wire;
  return { matchId, version, at: new Date(at).toISOString(), event: { type: 'moved', square, dir, clocks: packed && unpackClocks(packed, at) } };
}

function isPacked(wire: WireEnvelope): wire is PackedMove {
  return Array.isArray(wire);
}

function unpackClocks(packed: PackedClocks, at: number): Clocks {
  const [remaining0, remaining1, running, asOfAfter, startsAfter] = packed;
  const asOf = at + asOfAfter;
  const clocks: Clocks = { remainingMs: [remaining0, remaining1], running, asOf: new Date(asOf).toISOString() };
  return startsAfter === undefined ? clocks : { ...clocks, startsAt: new Date(asOf + startsAfter).toISOString() };
}

/** What a move did: the move as the match lists it, the ply's events (the sowing) and the rules state after it. */
export interface FollowedMove {
  readonly move: PlayedMove;
  readonly events: readonly PlyEvent[];
  readonly state: State;
}

/**
 * A move played on the rules state it was made from. Null when the rules
 * refuse it there: the state is not the one the server played it on (a
 * client that lost track), and only a snapshot can say where the match is.
 */
export function followMove(before: State, event: Pick<MovedEvent, 'square' | 'dir' | 'clocks'>): FollowedMove | null {
  const { square, dir, clocks } = event;
  const seat = before.position.toMove;
  const result = play(before, { square, dir });
  if (!result.ok) return null;
  const move: PlayedMove = {
    ply: result.state.position.ply,
    seat,
    square,
    dir,
    notation: formatMove({ square, dir }, seat),
    // The mover's clock stands after their move: what it shows is what they kept.
    remainingMs: clocks ? clocks.remainingMs[seat] : null,
  };
  return { move, events: result.events, state: result.state };
}

/**
 * The rules state a snapshot stands for: its moves played again from the
 * start, since R4.5's repetitions need the whole line. The snapshot's
 * position is the check: should the moves not lead there, the position wins
 * (its repetitions then count from it).
 */
export function stateOfSnapshot(snapshot: Pick<MatchSnapshot, 'rules' | 'first' | 'moves' | 'position'>): State {
  let state = newGame({ rules: snapshot.rules, first: snapshot.first ?? snapshot.position.toMove });
  for (const move of snapshot.moves) {
    const result = play(state, { square: move.square, dir: move.dir });
    if (!result.ok) break;
    state = result.state;
  }
  if (encodePosition(state.position) === encodePosition(snapshot.position)) return state;
  return stateFromPosition(snapshot.position, snapshot.rules);
}
