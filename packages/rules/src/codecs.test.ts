// Serialization of rule options (R6) and positions (R8): compact, stable,
// and validated on the way in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalMoves, playFast } from './play.js';
import { startPosition, type Position } from './position.js';
import { decodePosition, encodePosition } from './position-codec.js';
import { DEFAULT_RULES, PRESETS, resolveRules } from './rule-options.js';
import { decodeRules, encodeRules } from './rules-codec.js';
import { newGame, type State } from './state.js';

describe('rules codec', () => {
  it('writes every option in a fixed order', () => {
    expect(encodeRules(DEFAULT_RULES)).toBe('qv=10,qn=0,gap=0,end=squares,skip=0,limit=400');
    expect(encodeRules(PRESETS.vietnam)).toBe('qv=10,qn=5,gap=1,end=squares,skip=0,limit=400');
  });

  it('round-trips every option set', () => {
    fc.assert(
      fc.property(
        fc.record({
          quanValue: fc.constantFrom(10 as const, 5 as const),
          quanNon: fc.integer({ min: 0, max: 50 }),
          emptyQuanIsGap: fc.boolean(),
          endWhen: fc.constantFrom('quan-squares-empty' as const, 'quan-pieces-captured' as const),
          skipOrigin: fc.boolean(),
          plyLimit: fc.integer({ min: 1, max: 10000 }),
        }),
        (options) => {
          const rules = resolveRules(options);
          const text = encodeRules(rules);
          expect(decodeRules(text)).toEqual({ ok: true, rules });
          expect(encodeRules(resolveRules({ ...options }))).toBe(text);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accepts the fields in any order', () => {
    expect(decodeRules('limit=400,skip=0,end=squares,gap=0,qn=0,qv=10')).toEqual({ ok: true, rules: DEFAULT_RULES });
  });

  it.each([
    '',
    'qv=10,qn=0,gap=0,end=squares,skip=0',
    'qv=10,qn=0,gap=0,end=squares,skip=0,limit=400,limit=400',
    'qv=10,qn=0,gap=0,end=squares,skip=0,limit=400,x=1',
    'qv=7,qn=0,gap=0,end=squares,skip=0,limit=400',
    'qv=10,qn=051,gap=0,end=squares,skip=0,limit=400',
    'qv=10,qn=0,gap=2,end=squares,skip=0,limit=400',
    'qv=10,qn=0,gap=0,end=never,skip=0,limit=400',
    'qv=10,qn=0,gap=0,end=squares,skip=0,limit=0',
    'qv=10,qn=0,gap=0,end=squares,skip=0,limit=4e2',
    'qv=10;qn=0',
  ])('refuses %j', (text) => {
    const result = decodeRules(text);
    expect(result.ok).toBe(false);
  });
});

describe('position codec', () => {
  it('writes the start position', () => {
    expect(encodePosition(startPosition(1))).toBe('0.5.5.5.5.5.0.5.5.5.5.5/11/0.0.0.0/0.0/1/0/-');
  });

  it('round-trips every position of random games, ended ones included', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 200 }), fc.constantFrom(PRESETS.classic, PRESETS.vietnam), (choices, rules) => {
        let state: State = newGame({ rules });
        const check = (position: Position) => {
          const text = encodePosition(position);
          const decoded = decodePosition(text);
          expect(decoded).toEqual({ ok: true, position: JSON.parse(JSON.stringify(position)) });
          if (decoded.ok) expect(encodePosition(decoded.position)).toBe(text);
        };
        check(state.position);
        for (let i = 0; state.position.status === 'playing'; i++) {
          const legal = legalMoves(state);
          state = playFast(state, legal[(choices[i] ?? i) % legal.length]!) as State;
          check(state.position);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reads a result with negative scores', () => {
    const text = '0.0.0.0.0.0.0.1.1.1.1.1/00/0.1.40.1/9.0/0/37/ply-limit.-9.64';
    const decoded = decodePosition(text);
    expect(decoded.ok && decoded.position.result).toEqual({ reason: 'ply-limit', score: [-9, 64], winner: 1 });
  });

  it.each([
    ['', 'fields'],
    ['0.5.5.5.5.5.0.5.5.5.5/11/0.0.0.0/0.0/0/0/-', 'squares'],
    ['0.5.5.5.5.5.0.5.5.5.5.05/11/0.0.0.0/0.0/0/0/-', 'squares'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/12/0.0.0.0/0.0/0/0/-', 'quan'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/10/0.0.0.0/0.0/0/0/-', 'quan pieces'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/11/1.0.0.0/0.0/0/0/-', 'at most 50'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/11/0.0.0.0/0.0/2/0/-', 'mover'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/11/0.0.0.0/0.0/0/-1/-', 'ply'],
    ['0.0.0.0.0.0.0.5.5.5.5.5/11/25.0.0.0/0.0/0/0/-', 'no dân to sow'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/11/0.0.0.0/0.0/0/0/resign.1.0', 'result'],
    ['0.5.5.5.5.5.0.5.5.5.5.5/11/0.0.0.0/0.0/0/0/ply-limit.1', 'result'],
  ])('refuses %j (%s)', (text, about) => {
    const decoded = decodePosition(text);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.message).toContain(about);
  });
});
