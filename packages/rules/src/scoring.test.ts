// R5 Scoring, term by term.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scoreBreakdown, scoreOf } from './scoring.js';

const stock = (dan: number, quan: number) => ({ dan, quan });

describe('scoreBreakdown (R5.1–R5.2)', () => {
  it('R5.1: each player sweeps their own row; the mandarin squares are split, an odd dân counts for nobody', () => {
    const { players, unclaimed } = scoreBreakdown(
      { squares: [3, 1, 0, 2, 0, 0, 0, 0, 4, 0, 0, 1], captured: [stock(20, 1), stock(19, 1)], debt: [0, 0] },
      { quanValue: 10 },
    );
    expect(players[0]).toEqual({ capturedDan: 20, quanPieces: 1, quanPoints: 10, swept: 3, mandarinShare: 1, ownDebt: 0, opponentDebt: 0, total: 34 });
    expect(players[1]).toEqual({ capturedDan: 19, quanPieces: 1, quanPoints: 10, swept: 5, mandarinShare: 1, ownDebt: 0, opponentDebt: 0, total: 35 });
    expect(unclaimed).toBe(1);
  });

  it('R5.2: a borrower pays their debt back and the lender gets it, so a score can be negative', () => {
    const { players } = scoreBreakdown(
      { squares: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], captured: [stock(50, 2), stock(0, 0)], debt: [0, 3] },
      { quanValue: 10 },
    );
    expect(players[0].total).toBe(73);
    expect(players[0].opponentDebt).toBe(3);
    expect(players[1]).toMatchObject({ ownDebt: 3, opponentDebt: 0, total: -3 });
  });

  it('R2.2: a quan piece is worth quanValue (variant 5)', () => {
    const { players } = scoreBreakdown({ squares: Array(12).fill(0), captured: [stock(0, 2), stock(0, 0)], debt: [0, 0] }, { quanValue: 5 });
    expect(players[0]).toMatchObject({ quanPieces: 2, quanPoints: 10, total: 10 });
  });

  it('the terms add up to scoreOf for any board', () => {
    const count = fc.integer({ min: 0, max: 30 });
    fc.assert(
      fc.property(fc.array(count, { minLength: 12, maxLength: 12 }), count, count, fc.nat(2), fc.nat(2), count, count, fc.constantFrom(5, 10), (squares, d0, d1, q0, q1, b0, b1, quanValue) => {
        const position = { squares, captured: [stock(d0, q0), stock(d1, q1)] as const, debt: [b0, b1] as const };
        const { players, unclaimed } = scoreBreakdown(position, { quanValue });
        const totals = scoreOf(squares, position.captured, position.debt, quanValue);
        for (const p of [0, 1] as const) {
          const b = players[p];
          expect(b.capturedDan + b.quanPoints + b.swept + b.mandarinShare - b.ownDebt + b.opponentDebt).toBe(totals[p]);
          expect(b.total).toBe(totals[p]);
        }
        expect(players[0].mandarinShare * 2 + unclaimed).toBe(squares[0]! + squares[6]!);
      }),
    );
  });
});
