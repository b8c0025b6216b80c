import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, newGame, play } from '@oanquan/rules';
import type { MatchEvent, MatchEventEnvelope, MatchSnapshot } from '@oanquan/protocol';
import { stateOfSnapshot } from '@oanquan/protocol/moved';
import { applyEvent, stoppedClocks } from './apply-event.js';
import { EnvelopeBuffer } from './envelope-buffer.js';

const matchId = '8b0c5a4e-1f7a-4d3e-9a55-0f6f2b1c9d21';
const lan = { id: '1d9f3c36-9c52-4d80-8d0e-2b5a4c1e7f10', name: 'Lan' };
const minh = { id: '5e2a7b90-3c1d-4f6e-8a9b-7c6d5e4f3a21', name: 'Minh' };

function waiting(): MatchSnapshot {
  return {
    matchId,
    roomCode: 'AbCdEfGh',
    number: 1,
    version: 1,
    status: 'waiting',
    rules: DEFAULT_RULES,
    timeControl: { initialSeconds: 180, incrementSeconds: 2 },
    seats: [lan, null],
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

/** The snapshot after an event, from the rules state the snapshot stands for. */
function apply(snapshot: MatchSnapshot, event: MatchEventEnvelope): MatchSnapshot {
  const applied = applyEvent({ snapshot, game: stateOfSnapshot(snapshot) }, event);
  if (!applied) throw new Error('the rules refused the move');
  return applied.snapshot;
}

function envelope(version: number, event: MatchEvent, at = '2030-01-01T00:00:10.000Z'): MatchEventEnvelope {
  return { matchId, version, at, event };
}

describe('applyEvent', () => {
  it('follows a match from the second seat to the first move and the end', () => {
    let s = apply(waiting(), envelope(2, { type: 'seated', seat: 1, player: minh }));
    expect(s).toMatchObject({ version: 2, status: 'opener', seats: [lan, minh] });

    s = apply(s, envelope(3, { type: 'opener-chosen', seat: 1, round: 1, deadline: '2030-01-01T00:00:30.000Z' }));
    expect(s.opener).toMatchObject({ chosen: [false, true], deadline: '2030-01-01T00:00:30.000Z' });
    s = apply(s, envelope(4, { type: 'opener-round', round: 1, choices: ['rock', 'rock'], winner: null }));
    expect(s.opener).toEqual({ rounds: [{ round: 1, choices: ['rock', 'rock'], winner: null }], chosen: [false, false], deadline: null });

    const clocks = { remainingMs: [180_000, 180_000] as const, running: 1 as const, asOf: '2030-01-01T00:00:00.000Z' };
    s = apply(s, envelope(5, { type: 'started', first: 1, clocks, firstMoveDeadline: '2030-01-01T00:00:40.000Z' }));
    expect(s).toMatchObject({ status: 'playing', first: 1, clocks, firstMoveDeadline: '2030-01-01T00:00:40.000Z' });
    expect(s.position.toMove).toBe(1);

    const played = play(newGame({ first: 1 }), { square: 9, dir: -1 });
    if (!played.ok) throw new Error(played.code);
    // The move carries only itself and the clocks: its name, ply and the position come from the rules.
    s = apply(s, envelope(6, { type: 'moved', square: 9, dir: -1, clocks: { remainingMs: [180_000, 178_000], running: 0, asOf: clocks.asOf } }));
    expect(s.moves).toEqual([{ ply: 1, seat: 1, square: 9, dir: -1, notation: '3<', remainingMs: 178_000 }]);
    expect(s.position).toEqual(played.state.position);
    expect(s.firstMoveDeadline).toBeNull();

    const ratings = [{ before: 1500, after: 1420 }, { before: 1500, after: 1580 }] as const;
    s = apply(s, envelope(7, { type: 'ended', result: { winner: 1, reason: 'resign', score: null }, ratings }, '2030-01-01T00:00:04.000Z'));
    expect(s).toMatchObject({ status: 'ended', version: 7, result: { winner: 1, reason: 'resign' }, ratings });
    expect(s.clocks).toEqual({ remainingMs: [176_000, 178_000], running: null, asOf: '2030-01-01T00:00:04.000Z' });

    s = apply(s, envelope(8, { type: 'rematch-offered', seat: 0 }));
    expect(s.rematch.offered).toEqual([true, false]);
    s = apply(s, envelope(9, { type: 'rematch', matchId: lan.id }));
    expect(s.rematch.matchId).toBe(lan.id);
  });

  it('takes the clocks and deadlines of an outage credit in place of those it held', () => {
    const credit = { type: 'outage-credited' as const, creditMs: 4000 };
    let s = apply(waiting(), envelope(2, { type: 'seated', seat: 1, player: minh }));
    s = apply(s, envelope(3, { type: 'opener-chosen', seat: 1, round: 1, deadline: '2030-01-01T00:00:30.000Z' }));
    s = apply(s, envelope(4, { ...credit, clocks: null, firstMoveDeadline: null, openerDeadline: '2030-01-01T00:00:34.000Z' }));
    expect(s).toMatchObject({ version: 4, status: 'opener', opener: { chosen: [false, true], deadline: '2030-01-01T00:00:34.000Z' } });

    const clocks = { remainingMs: [180_000, 180_000] as const, running: null, asOf: '2030-01-01T00:00:00.000Z' };
    s = apply(s, envelope(5, { type: 'opener-round', round: 1, choices: ['rock', 'scissors'], winner: 0 }));
    s = apply(s, envelope(6, { type: 'started', first: 0, clocks, firstMoveDeadline: '2030-01-01T00:00:40.000Z' }));
    s = apply(s, envelope(7, { ...credit, clocks: { ...clocks, asOf: '2030-01-01T00:00:05.000Z' }, firstMoveDeadline: '2030-01-01T00:00:44.000Z', openerDeadline: null }));
    expect(s).toMatchObject({ version: 7, status: 'playing', firstMoveDeadline: '2030-01-01T00:00:44.000Z', clocks: { asOf: '2030-01-01T00:00:05.000Z' } });

    const running = { remainingMs: [171_000, 180_000] as const, running: 1 as const, asOf: '2030-01-01T00:01:00.000Z' };
    s = apply(s, envelope(8, { ...credit, clocks: running, firstMoveDeadline: null, openerDeadline: null }));
    expect(s.clocks).toEqual(running);
    expect(s.firstMoveDeadline).toBeNull();
  });

  it('stops clocks that are not running as they are', () => {
    expect(stoppedClocks(null, '2030-01-01T00:00:00.000Z')).toBeNull();
    const idle = { remainingMs: [1, 2] as const, running: null, asOf: '2030-01-01T00:00:00.000Z' };
    expect(stoppedClocks(idle, '2030-01-01T00:01:00.000Z')).toBe(idle);
  });

  it('stops a clock still in its sowing allowance where it stood', () => {
    const waiting = { remainingMs: [60_000, 30_000] as const, running: 1 as const, asOf: '2030-01-01T00:00:00.000Z', startsAt: '2030-01-01T00:00:03.000Z' };
    expect(stoppedClocks(waiting, '2030-01-01T00:00:02.000Z')?.remainingMs).toEqual([60_000, 30_000]);
    expect(stoppedClocks(waiting, '2030-01-01T00:00:05.000Z')?.remainingMs).toEqual([60_000, 28_000]);
  });
});

describe('EnvelopeBuffer', () => {
  const chosen = (version: number) => envelope(version, { type: 'opener-chosen', seat: 0, round: 1, deadline: null });

  it('gives envelopes in version order and holds back the ones after a gap', () => {
    const buffer = new EnvelopeBuffer();
    expect(buffer.accept(1, chosen(2))).toEqual({ ready: [chosen(2)], gap: false });
    expect(buffer.accept(2, chosen(4))).toEqual({ ready: [], gap: true });
    expect(buffer.accept(2, chosen(5))).toEqual({ ready: [], gap: true });
    expect(buffer.accept(2, chosen(3))).toEqual({ ready: [chosen(3), chosen(4), chosen(5)], gap: false });
  });

  it('drops what is already applied, and what a snapshot has overtaken', () => {
    const buffer = new EnvelopeBuffer();
    expect(buffer.accept(5, chosen(4))).toEqual({ ready: [], gap: false });
    buffer.accept(5, chosen(8));
    expect(buffer.drain(9)).toEqual({ ready: [], gap: false });
  });
});
