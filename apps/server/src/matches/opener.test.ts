import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@oanquan/protocol';
import { alice, applied, bob, openerTimes, waitingMatch } from '../testing/match-rows.js';
import { decideSeat } from './seat-decision.js';
import { decideForfeit, decideHand, roundWinner } from './opener.js';

describe('roundWinner', () => {
  it.each([
    ['rock', 'scissors', 0],
    ['scissors', 'paper', 0],
    ['paper', 'rock', 0],
    ['scissors', 'rock', 1],
    ['paper', 'scissors', 1],
    ['rock', 'paper', 1],
    ['rock', 'rock', null],
    ['paper', 'paper', null],
    ['scissors', 'scissors', null],
  ] as const)('%s against %s → %s', (a, b, winner) => {
    expect(roundWinner(a, b)).toBe(winner);
  });
});

describe('decideHand and decideForfeit, without a database', () => {
  const start = new Date('2026-01-01T00:00:00Z');
  const later = (ms: number) => new Date(start.getTime() + ms);
  const seated = [alice, bob].reduce((match, player) => applied(match, decideSeat(match, player)), waitingMatch());

  it('opens a round with the first hand, keeps it hidden, and a tie replays', () => {
    const first = decideHand(seated, 0, 'rock', start, openerTimes);
    if (first === 'lapsed') throw new Error('lapsed');
    expect(first.events).toEqual([{ type: 'opener-chosen', seat: 0, round: 1, deadline: later(30_000).toISOString() }]);
    expect(first.next.rounds).toHaveLength(1);
    expect(() => decideHand(first.next, 0, 'paper', start, openerTimes)).toThrow(expect.objectContaining({ code: ErrorCode.AlreadyChosen }));
    const tie = decideHand(first.next, 1, 'rock', later(1000), openerTimes);
    if (tie === 'lapsed') throw new Error('lapsed');
    expect(tie.events[1]).toEqual({ type: 'opener-round', round: 1, choices: ['rock', 'rock'], winner: null });
    expect(tie.next.status).toBe('opener');
    expect(tie.next.version).toBe(first.next.version + 2);
  });

  it('past the deadline a hand is lapsed, and the forfeit gives the toss to the one who chose', () => {
    const first = decideHand(seated, 1, 'paper', start, openerTimes);
    if (first === 'lapsed') throw new Error('lapsed');
    expect(decideForfeit(first.next, later(29_999), openerTimes)).toBeNull();
    expect(decideHand(first.next, 0, 'rock', later(30_000), openerTimes)).toBe('lapsed');
    const forfeit = decideForfeit(first.next, later(30_000), openerTimes)!;
    expect(forfeit.events[0]).toEqual({ type: 'opener-forfeit', round: 1, winner: 1 });
    expect(forfeit.update).toMatchObject({ status: 'playing', first: 1 });
  });
});
