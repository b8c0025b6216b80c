import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { alice, bob, carol, matchInPlay } from '../testing/match-rows.js';
import { decideMove } from './move-decision.js';

const start = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(start.getTime() + ms);
const move = (version: number, square = 1) => ({ matchId: 'm', moveId: 'x1', version, square, dir: 1 as const });

describe('decideMove, without a database', () => {
  it('checks in the fixed order: seat, turn, version, clock, rules', () => {
    const { match, state } = matchInPlay(start);
    const refusal = (code: string) => expect.objectContaining({ code });
    expect(() => decideMove(match, state, carol, move(0), start, start)).toThrow(refusal(ErrorCode.NotAPlayer));
    expect(() => decideMove(match, state, bob, move(0), start, start)).toThrow(refusal(ErrorCode.NotYourTurn));
    expect(() => decideMove(match, state, alice, move(match.version - 1), start, start)).toThrow(refusal(ErrorCode.StaleVersion));
    expect(() => decideMove(match, state, alice, move(match.version), later(60_000), later(60_000))).toThrow(refusal(ErrorCode.TimeOut));
    expect(() => decideMove(match, state, alice, move(match.version, 7), start, start)).toThrow(refusal('ERR_NOT_YOUR_SQUARE'));
  });

  it('works out the row after a legal move without touching anything', () => {
    const { match, state } = matchInPlay(start);
    const before = structuredClone(match);
    const decided = decideMove(match, state, alice, move(match.version), later(2000), later(2001));
    expect(match).toEqual(before);
    expect(decided.next.version).toBe(match.version + 1);
    expect(decided.events).toHaveLength(1);
    expect(decided.events[0]).toMatchObject({ type: 'moved', square: 1, dir: 1 });
    expect(decided.record).toMatchObject({ ply: 1, moveId: 'x1', playerId: alice.id, movedAt: later(2000) });
    expect(decided.after.position.toMove).toBe(1);
    expect(decided.rated).toBe(false);
  });
});
