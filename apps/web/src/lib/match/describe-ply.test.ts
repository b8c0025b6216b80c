import { describe, expect, it } from 'vitest';
import { newGame, play } from '@oanquan/rules';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { describePly } from './describe-ply.js';

describe('describePly', () => {
  const result = play(newGame(), { square: 1, dir: -1 });
  if (!result.ok) throw new Error(result.code);
  const move = { ply: 1, seat: 0 as const, square: 1, dir: -1 as const, notation: '1<', remainingMs: null };

  it('says R9 E1 in English', () => {
    const t = (key: keyof typeof en, params?: Record<string, string | number>) => interpolate(en[key], params);
    expect(describePly(t, move, result.events, ['Lan', 'Minh'])).toBe(
      'Lan played 1<: square 1, 5 dân, toward their left. Captured a quan and 1 dân.',
    );
  });

  it('says it in Vietnamese', () => {
    const t = (key: keyof typeof vi, params?: Record<string, string | number>) => interpolate(vi[key], params);
    expect(describePly(t, move, result.events, ['Lan', 'Minh'])).toBe('Lan đi 1<: ô 1, 5 dân, rải sang trái. Ăn quan và 1 dân.');
  });
});
