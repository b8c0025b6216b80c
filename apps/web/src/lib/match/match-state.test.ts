import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, legalMoves, newGame, play, type Move, type State } from '@oanquan/rules';
import type { MatchEventEnvelope, MatchSnapshot } from '@oanquan/protocol';
import { MatchState } from './match-state.svelte.js';

const matchId = '8b0c5a4e-1f7a-4d3e-9a55-0f6f2b1c9d21';
const players = [
  { id: '1d9f3c36-9c52-4d80-8d0e-2b5a4c1e7f10', name: 'Lan' },
  { id: '5e2a7b90-3c1d-4f6e-8a9b-7c6d5e4f3a21', name: 'Minh' },
] as const;

function snapshot(version: number): MatchSnapshot {
  return {
    matchId,
    roomCode: 'AbCdEfGh',
    number: 1,
    version,
    status: 'opener',
    rules: DEFAULT_RULES,
    timeControl: null,
    seats: players,
    opener: { rounds: [], chosen: [false, false], deadline: null },
    first: null,
    moves: [],
    position: newGame().position,
    clocks: null,
    firstMoveDeadline: null,
    result: null,
    ratings: null,
    rematch: { offered: [false, false], matchId: null },
    pairing: null,
  };
}

const chosen = (version: number, seat: 0 | 1 = 0): MatchEventEnvelope => ({
  matchId,
  version,
  at: '2030-01-01T00:00:00.000Z',
  event: { type: 'opener-chosen', seat, round: 1, deadline: null },
});
const started = (version: number): MatchEventEnvelope => ({
  matchId,
  version,
  at: '2030-01-01T00:00:00.000Z',
  event: { type: 'started', first: 1, clocks: null, firstMoveDeadline: '2030-01-01T00:00:30.000Z' },
});

function tracked(version: number, seat: 0 | 1 | null = 1) {
  const applied: number[] = [];
  let gaps = 0;
  let lost = 0;
  const match = new MatchState(snapshot(version), seat, {
    applied: (envelope) => applied.push(envelope.version),
    gap: () => gaps++,
    lost: () => lost++,
  });
  return { match, applied, gaps: () => gaps, lost: () => lost };
}

/** A position one move from the end (the first legal move each time, from the start), and that move. */
function lastPly(): { before: State; move: Move } {
  let state = newGame({ first: 1 });
  for (;;) {
    const move = legalMoves(state)[0]!;
    const played = play(state, move);
    if (!played.ok) throw new Error(played.code);
    if (played.state.position.status === 'ended') return { before: state, move };
    state = played.state;
  }
}

describe('MatchState', () => {
  it('applies events in version order, asks for what is missing and ignores other matches', () => {
    const { match, applied, gaps } = tracked(2);
    match.receive(started(4));
    expect(gaps()).toBe(1);
    expect(match.version).toBe(2);
    match.receive({ ...chosen(3), matchId: '00000000-0000-4000-8000-000000000000' });
    expect(match.version).toBe(2);
    match.receive(chosen(3));
    expect(applied).toEqual([3, 4]);
    expect(match.snapshot.status).toBe('playing');
    match.receive(chosen(3));
    expect(applied).toEqual([3, 4]);
  });

  it('lists legal moves only for the seat to move', () => {
    const mover = tracked(2, 1).match;
    mover.receive(started(3));
    expect(mover.myTurn).toBe(true);
    expect(mover.legal.map((m) => m.square)).toEqual([7, 7, 8, 8, 9, 9, 10, 10, 11, 11]);
    const other = tracked(2, 0).match;
    other.receive(started(3));
    expect(other.legal).toEqual([]);
    const spectator = tracked(2, null).match;
    spectator.receive(started(3));
    expect(spectator.legal).toEqual([]);
  });

  it('takes a newer snapshot whole, then whatever held events follow it', () => {
    const { match, applied } = tracked(2);
    match.receive(started(6));
    match.replace({ ...snapshot(5), opener: { rounds: [], chosen: [true, true], deadline: null } });
    expect(match.version).toBe(6);
    expect(applied).toEqual([6]);
    match.replace(snapshot(3));
    expect(match.version).toBe(6);
  });

  it('never says "your move" for a ply that ended the game, before the end event has arrived', () => {
    const heard: boolean[] = [];
    const { before, move } = lastPly();
    const seat = before.position.toMove === 0 ? 1 : 0;
    const playing: MatchSnapshot = { ...snapshot(3), status: 'playing', first: 1, position: before.position };
    const match: MatchState = new MatchState(playing, seat, { applied: () => heard.push(match.myTurn), gap: () => {}, lost: () => {} });
    match.receive({ matchId, version: 4, at: '2030-01-01T00:00:01.000Z', event: { type: 'moved', ...move, clocks: null } });
    expect(match.snapshot.position.status).toBe('ended');
    expect(heard).toEqual([false]);
    expect(match.legal).toEqual([]);
  });

  it('plays each move with the rules, and asks for a snapshot when they refuse one', () => {
    const { match, applied, lost } = tracked(2, 0);
    match.receive(started(3));
    match.receive({ matchId, version: 4, at: '2030-01-01T00:00:01.000Z', event: { type: 'moved', square: 9, dir: -1, clocks: null } });
    expect(match.snapshot.moves).toEqual([{ ply: 1, seat: 1, square: 9, dir: -1, notation: '3<', remainingMs: null }]);
    expect(match.myTurn).toBe(true);
    // Seat 1's square again, on seat 0's turn: not a move of this game, so this client lost track.
    match.receive({ matchId, version: 5, at: '2030-01-01T00:00:02.000Z', event: { type: 'moved', square: 9, dir: -1, clocks: null } });
    expect(lost()).toBe(1);
    expect(applied).toEqual([3, 4]);
    expect(match.version).toBe(4);
  });
});
