// The sowing allowance: a function of the ply alone, capped.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { legalMoves, play } from './play.js';
import { newGame } from './state.js';
import { ALLOWANCE_BASE_MS, MAX_ALLOWANCE_MS, sowingAllowanceMs, sowingMs } from './sowing-time.js';

describe('sowingAllowanceMs', () => {
  it('is the sowing at the default speed and the way to the screen: a pickup, ten drops, a relay and a capture', () => {
    const result = play(newGame({ first: 0 }), { square: 1, dir: 1 });
    if (!result.ok) throw new Error(result.code);
    expect(result.events.map((e) => e.type).join(' ')).toBe('pickup drop drop drop drop drop relay drop drop drop drop drop capture');
    expect(sowingMs(result.events)).toBe(320 + 10 * 170 + 320 + 480);
    expect(sowingAllowanceMs(result.events)).toBe(250 + 2820);
  });

  it('never exceeds the cap and never falls below the base, whatever the ply', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100), { maxLength: 40 }), (picks) => {
        let state = newGame({ first: 0 });
        for (const pick of picks) {
          const moves = legalMoves(state);
          if (!moves.length) break;
          const result = play(state, moves[pick % moves.length]!);
          if (!result.ok) throw new Error(result.code);
          const allowance = sowingAllowanceMs(result.events);
          expect(allowance).toBeGreaterThanOrEqual(ALLOWANCE_BASE_MS);
          expect(allowance).toBeLessThanOrEqual(MAX_ALLOWANCE_MS);
          state = result.state;
        }
      }),
      { numRuns: 50 },
    );
  });
});
