import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { alice, applied, bob, carol, matchInPlay, openerTimes, waitingMatch } from '../testing/match-rows.js';
import { abortion, claimOf, decideAbandoned, decideEnd, decideExpiry, decideIdleOpener, resignation } from './end-decisions.js';
import { decideHand } from './opener.js';
import { decideSeat } from './seat-decision.js';

const start = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(start.getTime() + ms);

describe('the endings, without a database', () => {
  it('refuses someone who only watches before anything else', () => {
    const { match } = matchInPlay(start);
    expect(() => decideEnd(match, carol, resignation, start)).toThrow(expect.objectContaining({ code: ErrorCode.NotAPlayer }));
  });

  it('resigning gives the opponent the win and stops the clocks; only in play', () => {
    const { match } = matchInPlay(start);
    const ended = decideEnd(match, bob, resignation, later(1000));
    expect(ended.events).toEqual([{ type: 'ended', result: { winner: 0, reason: 'resign', score: null }, ratings: null }]);
    expect(ended.update).toMatchObject({ status: 'ended', winner: 0, endReason: 'resign', clockDeadline: null });
    expect(() => decideEnd({ ...waitingMatch(), status: 'opener', player0Id: alice.id }, alice, resignation, start)).toThrow(expect.objectContaining({ code: ErrorCode.NotInPlay }));
  });

  it('aborts only before the first move', () => {
    const { match } = matchInPlay(start);
    expect(decideEnd(match, alice, abortion, later(10)).events[0]).toMatchObject({ result: { winner: null, reason: 'abort' } });
    const moved = { ...match, position: { ...(match.position as object), ply: 1 } } as typeof match;
    expect(() => decideEnd(moved, alice, abortion, later(10))).toThrow(expect.objectContaining({ code: ErrorCode.NotAllowedNow }));
  });

  it('a claim waits until the opponent has been gone long enough', () => {
    const { match } = matchInPlay(start);
    const claim = claimOf(() => later(5000));
    expect(() => decideEnd(match, alice, claim, later(4999))).toThrow(expect.objectContaining({ code: ErrorCode.NotAllowedNow }));
    expect(decideEnd(match, alice, claim, later(5000)).events[0]).toMatchObject({ result: { winner: 0, reason: 'abandon' } });
  });

  it('an overdue match ends as the sweeper would, whatever was asked', () => {
    const { match } = matchInPlay(start);
    // The first move was due 60 s after the start: a resign after that aborts the match instead.
    expect(decideEnd(match, bob, resignation, later(60_000)).events[0]).toMatchObject({ result: { winner: null, reason: 'abort' } });
    expect(decideExpiry(match, later(59_999))).toEqual({ result: null, events: [] });
    expect(decideExpiry(match, later(60_000)).events[0]).toMatchObject({ result: { reason: 'abort' } });
  });

  it('a match both players left ends by itself once both are past the grace', () => {
    const { match } = matchInPlay(start);
    const gone = { ...match, absent0Since: start, absent1Since: later(1000) };
    expect(decideAbandoned(gone, later(10_999), 10_000).events).toEqual([]);
    expect(decideAbandoned({ ...match, absent0Since: start }, later(20_000), 10_000).events).toEqual([]);
    expect(decideAbandoned(gone, later(11_000), 10_000).events[0]).toMatchObject({ result: { winner: null, reason: 'abort' } });
    const moved = { ...gone, position: { ...(gone.position as object), ply: 3 } } as typeof match;
    expect(decideAbandoned(moved, later(11_000), 10_000).events[0]).toMatchObject({ result: { winner: null, reason: 'abandon' } });
  });

  it('an opener nobody chose in for the timeout since its last activity is aborted; a round one of them opened is not', () => {
    let opener = waitingMatch();
    for (const player of [alice, bob]) opener = applied(opener, decideSeat(opener, player));
    expect(decideIdleOpener(opener, later(1000), later(10_999), 10_000).events).toEqual([]);
    const idle = decideIdleOpener(opener, later(1000), later(11_000), 10_000);
    expect(idle.events).toEqual([{ type: 'ended', result: { winner: null, reason: 'abort', score: null }, ratings: null }]);
    expect(idle.update).toMatchObject({ status: 'ended', winner: null, endReason: 'abort' });
    const chosen = decideHand(opener, 0, 'rock', later(2000), openerTimes);
    if (chosen === 'lapsed') throw new Error('the opener lapsed');
    expect(decideIdleOpener(chosen.next, later(1000), later(60_000), 10_000).events).toEqual([]);
    expect(decideIdleOpener(matchInPlay(start).match, start, later(60_000), 10_000).events).toEqual([]);
  });
});
