import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { playerName, seatNames } from './names.js';

const say = (dictionary: typeof en | typeof vi) => (key: keyof typeof en, params?: Record<string, string | number>) => interpolate(dictionary[key], params);
const computer = { id: 'c', name: 'Computer (level 5)', botLevel: 5 };
const person = { id: 'p', name: 'Mèo 527', botLevel: null };

describe('player names', () => {
  it('name the computer in the reader’s language and a person by their own name', () => {
    expect(playerName(computer, say(vi))).toBe('Máy (cấp 5)');
    expect(playerName(computer, say(en))).toBe('Computer (level 5)');
    expect(playerName(person, say(vi))).toBe('Mèo 527');
  });

  it('name a closed account’s seat in the reader’s language', () => {
    const closed = { id: 'd', name: 'deleted player', botLevel: null };
    expect(playerName(closed, say(vi))).toBe('người chơi đã xoá');
    expect(playerName(closed, say(en))).toBe('deleted player');
    expect(seatNames([closed, person], '?', say(vi))).toEqual(['người chơi đã xoá', 'Mèo 527']);
  });

  it('fill an empty seat with the fallback', () => {
    expect(seatNames([computer, null], '?', say(vi))).toEqual(['Máy (cấp 5)', '?']);
    expect(seatNames([null, person], '?')).toEqual(['?', 'Mèo 527']);
  });
});
