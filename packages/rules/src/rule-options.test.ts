// R6 options, presets and their checks.

import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, PRESETS, resolveRules, sameRules, validateRules } from './rule-options.js';

describe('R6', () => {
  it('defaults as the table says', () => {
    expect(DEFAULT_RULES).toEqual({
      quanValue: 10,
      quanNon: 0,
      emptyQuanIsGap: false,
      endWhen: 'quan-squares-empty',
      skipOrigin: false,
      plyLimit: 400,
    });
  });

  it('presets: classic is the defaults, vietnam adds quan non 5 and empty quan as gap', () => {
    expect(PRESETS.classic).toEqual(DEFAULT_RULES);
    expect(PRESETS.vietnam).toEqual({ ...DEFAULT_RULES, quanNon: 5, emptyQuanIsGap: true });
    expect(Object.isFrozen(PRESETS.vietnam)).toBe(true);
  });

  it('fills missing options with the defaults', () => {
    expect(resolveRules()).toBe(DEFAULT_RULES);
    expect(resolveRules({ quanValue: 5 })).toEqual({ ...DEFAULT_RULES, quanValue: 5 });
    expect(validateRules({})).toEqual({ ok: true, rules: DEFAULT_RULES });
  });

  it.each([
    [{ quanValue: 10 }, true],
    [{ quanValue: 5 }, true],
    [{ quanValue: 7 }, false],
    [{ quanValue: '10' }, false],
    [{ quanNon: 0 }, true],
    [{ quanNon: 50 }, true],
    [{ quanNon: 51 }, false],
    [{ quanNon: -1 }, false],
    [{ quanNon: 2.5 }, false],
    [{ emptyQuanIsGap: true }, true],
    [{ emptyQuanIsGap: 1 }, false],
    [{ endWhen: 'quan-pieces-captured' }, true],
    [{ endWhen: 'never' }, false],
    [{ skipOrigin: true }, true],
    [{ skipOrigin: 'yes' }, false],
    [{ plyLimit: 1 }, true],
    [{ plyLimit: 10000 }, true],
    [{ plyLimit: 0 }, false],
    [{ plyLimit: 10001 }, false],
    [{ plyLimit: Number.NaN }, false],
    [{ plyLimit: 400, extra: true }, false],
    [null, false],
    [[], false],
    ['classic', false],
  ])('validateRules(%j) ok: %s', (input, ok) => {
    const result = validateRules(input);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.message).toMatch(/\w/);
  });

  it('resolveRules throws on options that validateRules refuses', () => {
    expect(() => resolveRules({ plyLimit: 0 })).toThrow(RangeError);
  });

  it('sameRules compares every option', () => {
    expect(sameRules(resolveRules({ quanNon: 5, emptyQuanIsGap: true }), PRESETS.vietnam)).toBe(true);
    expect(sameRules(PRESETS.classic, PRESETS.vietnam)).toBe(false);
  });
});
