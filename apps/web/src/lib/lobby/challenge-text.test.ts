import { PRESETS } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { I18n } from '../i18n/i18n.svelte.js';
import { challengeTerms } from './challenge-text.js';

describe('challengeTerms', () => {
  it("says the clock, the stakes and the rules in the reader's language", () => {
    const terms = { timeControl: { initialSeconds: 300, incrementSeconds: 3 }, rated: true, rules: PRESETS.classic };
    expect(challengeTerms(new I18n('en').t, terms)).toBe('5 min + 3 s · rated · Classic rules');
    expect(challengeTerms(new I18n('vi').t, { ...terms, timeControl: null, rated: false, rules: PRESETS.vietnam })).toBe('không đồng hồ · giao hữu · Luật kiểu Việt Nam');
  });
});
