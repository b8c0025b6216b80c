// R10.2, R10.6, R10.9 four-player rule options, and positions checked as R10.9 shapes them.

import { describe, expect, it } from 'vitest';
import { fourStartPosition, validateFourPosition } from './four-position.js';
import { FOUR_PLY_LIMIT, isFourRules, resolveFourRules, validateFourRules, validateGameRules } from './four-rules.js';
import { DEFAULT_RULES, PRESETS } from './rule-options.js';

describe('four-player rule options', () => {
  it('default to R6’s, with a ply limit of 800 unless one is given', () => {
    expect(resolveFourRules({ players: 4 })).toEqual({ ...DEFAULT_RULES, plyLimit: FOUR_PLY_LIMIT, players: 4 });
    expect(resolveFourRules({ players: 4, plyLimit: 400 }).plyLimit).toBe(400);
    expect(resolveFourRules({ ...PRESETS.vietnam, players: 4, teams: 2 })).toEqual({ ...PRESETS.vietnam, players: 4, teams: 2 });
  });

  it.each([
    [{ players: 3 }, 'players must be 4'],
    [{ players: 4, teams: 4 }, 'teams must be 2 or absent'],
    [{ players: 4, quanValue: 7 }, 'quanValue must be 10 or 5'],
    [{ players: 4, colour: 'red' }, 'unknown rule option "colour"'],
    ['4', 'rules must be an object'],
  ])('refuse %j', (input, message) => {
    expect(validateFourRules(input)).toEqual({ ok: false, message });
  });

  it('validateGameRules chooses the game by players, and refuses teams on the classic board (R10.1)', () => {
    const four = validateGameRules({ players: 4, teams: 2 });
    expect(four.ok && isFourRules(four.rules) && four.rules.teams).toBe(2);
    expect(validateGameRules({ players: 2, quanNon: 5 })).toEqual({ ok: true, rules: { ...DEFAULT_RULES, quanNon: 5 } });
    expect(validateGameRules(undefined)).toEqual({ ok: true, rules: DEFAULT_RULES });
    expect(validateGameRules({ teams: 2 }).ok).toBe(false);
    expect(validateGameRules({ players: 3 })).toEqual({ ok: false, message: 'players must be 2 or 4' });
  });
});

describe('four-player positions', () => {
  it('accept the start and refuse what R10.9 does not shape', () => {
    const start = fourStartPosition(2);
    expect(validateFourPosition(start)).toEqual({ ok: true, position: start });
    const bad = (change: object) => validateFourPosition({ ...start, ...change });
    expect(bad({ squares: start.squares.slice(0, 12) }).ok).toBe(false);
    expect(bad({ quan: [true, true] }).ok).toBe(false);
    expect(bad({ debt: [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]] })).toEqual({ ok: false, message: 'nobody owes themselves' });
    expect(bad({ toMove: 4 }).ok).toBe(false);
    expect(bad({ squares: start.squares.map((n) => n + 1) })).toEqual({ ok: false, message: 'at most 100 dân can be in play' });
    expect(bad({ captured: start.captured.map((s, p) => (p === 0 ? { dan: 0, quan: 1 } : s)) })).toEqual({
      ok: false,
      message: 'the four quan pieces must be on the board or captured',
    });
  });
});
