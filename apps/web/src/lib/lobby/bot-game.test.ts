import { describe, expect, it } from 'vitest';
import { LEVEL_SETTINGS } from '../../../../../packages/engine/src/levels.js';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { BOT_LEVELS, BOT_LEVEL_RATINGS, GREEDY_RATING, botLevelParams } from './bot-game.js';

describe('the levels offered against the computer', () => {
  it('carry the ratings the engine measured, rising from below the greedy player', () => {
    for (const level of BOT_LEVELS) expect(BOT_LEVEL_RATINGS[level], `level ${level}`).toBe(LEVEL_SETTINGS[level].rating);
    for (const level of BOT_LEVELS.slice(1)) expect(BOT_LEVEL_RATINGS[level]).toBeGreaterThan(BOT_LEVEL_RATINGS[(level - 1) as 1]);
    expect(BOT_LEVEL_RATINGS[1]).toBeLessThan(GREEDY_RATING);
    expect(BOT_LEVEL_RATINGS[8]).toBeGreaterThan(GREEDY_RATING);
  });

  it('name each level with its rating in both languages', () => {
    expect(interpolate(en['bot.levelOption'], botLevelParams(8))).toBe(`Level 8 (rating ≈ ${BOT_LEVEL_RATINGS[8]})`);
    expect(interpolate(vi['bot.levelOption'], botLevelParams(8))).toBe(`Cấp 8 (≈ ${BOT_LEVEL_RATINGS[8]} điểm)`);
    for (const dictionary of [en, vi]) expect(interpolate(dictionary['home.computerRatings'], { greedy: GREEDY_RATING })).toContain(String(GREEDY_RATING));
  });
});
