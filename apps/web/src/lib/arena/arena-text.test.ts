import { describe, expect, it } from 'vitest';
import { I18n } from '../i18n/i18n.svelte.js';
import { countdown, waitText } from './arena-text.js';

describe('countdown', () => {
  it('shows whole seconds, hours once an hour or more is left', () => {
    expect(countdown(0)).toBe('0:00');
    expect(countdown(5_200)).toBe('0:06');
    expect(countdown(12 * 60_000 + 30_000)).toBe('12:30');
    expect(countdown(10 * 3600_000 + 5 * 60_000)).toBe('10:05:00');
    expect(countdown(-3000)).toBe('0:00');
  });
});

describe('waitText', () => {
  it('counts down to a rematch, then says a pairing is coming', () => {
    const i18n = new I18n('en');
    const wait = { reason: 'rematch' as const, opponent: 'Bình', at: new Date(60_000).toISOString() };
    expect(waitText(i18n, wait, 40_000)).toBe('Waiting for another opponent: you will play Bình again in 0:20.');
    expect(waitText(i18n, wait, 60_000)).toBe('Waiting for a free opponent…');
    expect(waitText(i18n, { reason: 'busy' }, 0)).toBe('Everyone else is in a game: you will be paired as soon as one ends.');
  });
});
