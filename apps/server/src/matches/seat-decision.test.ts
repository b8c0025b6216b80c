import { describe, expect, it } from 'vitest';
import { alice, applied, bob, carol, waitingMatch } from '../testing/match-rows.js';
import { decideSeat } from './seat-decision.js';

describe('decideSeat, without a database', () => {
  it('seats the first two players in order, the second starting the opener, and lets everyone else watch', () => {
    const empty = waitingMatch();
    const first = decideSeat(empty, alice);
    expect(first).toEqual({ result: 0, events: [{ type: 'seated', seat: 0, player: alice }], update: { player0Id: alice.id } });
    const half = applied(empty, first);
    const second = decideSeat(half, bob);
    expect(second.result).toBe(1);
    expect(second.update).toEqual({ player1Id: bob.id, status: 'opener' });
    const full = applied(half, second);
    expect(decideSeat(full, carol)).toEqual({ result: null, events: [] });
    expect(decideSeat(full, alice)).toEqual({ result: 0, events: [] });
  });
});
