import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { timeControlText } from './rules-summary.js';

const say = (dictionary: typeof en | typeof vi) => (key: keyof typeof en, params?: Record<string, string | number>) => interpolate(dictionary[key], params);

describe('timeControlText', () => {
  it('writes a clock under a minute in seconds, never as a fraction of a minute', () => {
    expect(timeControlText(say(en), { initialSeconds: 15, incrementSeconds: 0 })).toBe('15 s + 0 s');
    expect(timeControlText(say(vi), { initialSeconds: 15, incrementSeconds: 2 })).toBe('15 giây + 2 giây');
  });

  it('keeps whole minutes as minutes and splits the rest', () => {
    expect(timeControlText(say(en), { initialSeconds: 180, incrementSeconds: 2 })).toBe('3 min + 2 s');
    expect(timeControlText(say(en), { initialSeconds: 90, incrementSeconds: 1 })).toBe('1 min 30 s + 1 s');
  });
});
