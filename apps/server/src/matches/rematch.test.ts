import { ErrorCode } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { alice, matchInPlay } from '../testing/match-rows.js';
import { decideRematch } from './rematch.js';

const now = new Date('2026-01-01T00:10:00Z');
const newId = '00000000-0000-4000-8000-0000000000cc';

describe('decideRematch, without a database', () => {
  const ended = { ...matchInPlay(new Date('2026-01-01T00:00:00Z')).match, status: 'ended' as const };

  it('is refused before the match has ended', () => {
    expect(() => decideRematch({ ...ended, status: 'playing' }, 0, newId, now)).toThrow(expect.objectContaining({ code: ErrorCode.NotAllowedNow }));
  });

  it('offers, changes nothing when asked again, and on the other seat accepts with the next match of the room', () => {
    const offer = decideRematch(ended, 0, newId, now)!;
    expect(offer.events).toEqual([{ type: 'rematch-offered', seat: 0 }]);
    expect(offer.created).toBeNull();
    expect(offer.after).toMatchObject({ rematch0: true, nextMatchId: null, version: ended.version + 1 });
    expect(decideRematch(offer.after, 0, newId, now)).toBeNull();
    const accepted = decideRematch(offer.after, 1, newId, now)!;
    expect(accepted.events).toEqual([{ type: 'rematch-offered', seat: 1 }, { type: 'rematch', matchId: newId }]);
    expect(accepted.after).toMatchObject({ rematch1: true, nextMatchId: newId, version: offer.after.version + 2 });
    expect(accepted.created).toMatchObject({ id: newId, number: ended.number + 1, status: 'opener', player0Id: alice.id, player1Id: ended.player1Id, version: 0, createdAt: now });
  });
});
