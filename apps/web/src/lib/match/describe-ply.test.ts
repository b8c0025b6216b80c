import { describe, expect, it } from 'vitest';
import { PRESETS, newGame, play, type Move, type RuleOptions } from '@oanquan/rules';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { describePly } from './describe-ply.js';

const english = (key: keyof typeof en, params?: Record<string, string | number>) => interpolate(en[key], params);
const vietnamese = (key: keyof typeof vi, params?: Record<string, string | number>) => interpolate(vi[key], params);

function played(moves: readonly Move[], rules?: RuleOptions) {
  let state = newGame({ rules });
  let events = null;
  for (const move of moves) {
    const result = play(state, move);
    if (!result.ok) throw new Error(result.code);
    state = result.state;
    events = result.events;
  }
  return events!;
}

describe('describePly', () => {
  const e1 = played([{ square: 1, dir: -1 }]);
  const move = { ply: 1, seat: 0 as const, square: 1, dir: -1 as const, notation: '1<', remainingMs: null };

  it('says R9 E1 in English, the same way round for every viewer: clockwise', () => {
    expect(describePly(english, move, e1, ['Lan', 'Minh'])).toBe('Lan sowed their square 1 (5 dân) clockwise: captured a quan and 1 dân.');
  });

  it('says it in Vietnamese', () => {
    expect(describePly(vietnamese, move, e1, ['Lan', 'Minh'])).toBe('Lan rải ô 1 của mình (5 dân) thuận chiều kim đồng hồ: ăn quan và 1 dân.');
  });

  it('says a move toward the mover’s right counter-clockwise, for the second player too', () => {
    const e3 = played([{ square: 2, dir: 1 }]);
    expect(describePly(english, { ...move, square: 2, dir: 1, notation: '2>' }, e3, ['Lan', 'Minh'])).toMatch(/^Lan sowed their square 2 \(5 dân\) counter-clockwise: /);
    const second = played([{ square: 2, dir: 1 }, { square: 9, dir: 1 }]);
    const minh = { ply: 2, seat: 1 as const, square: 9, dir: 1 as const, notation: '3>', remainingMs: null };
    expect(describePly(vietnamese, minh, second, ['Lan', 'Minh'])).toMatch(/^Minh rải ô 3 của mình \(\d+ dân\) ngược chiều kim đồng hồ/);
  });

  it('says a ply that captures nothing (R9 E2, quan non) without a capture', () => {
    const events = played([{ square: 1, dir: -1 }], PRESETS.vietnam);
    expect(events.some((e) => e.type === 'capture')).toBe(false);
    expect(describePly(english, move, events, ['Lan', 'Minh'])).toBe('Lan sowed their square 1 (5 dân) clockwise.');
  });

  it('speaks to the seat it is told is "you", and of the other in the third person', () => {
    const names = ['You', 'Opponent'] as const;
    expect(describePly(english, move, e1, names, 0)).toBe('You sowed your square 1 (5 dân) clockwise: captured a quan and 1 dân.');
    expect(describePly(english, move, e1, names, 1)).toMatch(/^You sowed their square 1 /);
    expect(describePly(vietnamese, move, e1, ['Bạn', 'Đối thủ'], 0)).toMatch(/^Bạn rải ô 1 của mình \(5 dân\)/);
  });
});
