import { describe, expect, it } from 'vitest';
import type { MatchResult, Seat } from '@oanquan/protocol';
import { en } from '../i18n/en.js';
import { interpolate } from '../i18n/interpolate.js';
import { vi } from '../i18n/vi.js';
import { endSentence } from './end-sentence.js';

const names = ['Mèo 527', 'Hổ 845'] as const;
const say = (dictionary: typeof en | typeof vi) => (key: keyof typeof en, params?: Record<string, string | number>) => interpolate(dictionary[key], params);
const ended = (reason: MatchResult['reason'], winner: Seat | null): MatchResult => ({ reason, winner, score: null });

describe('endSentence', () => {
  it('tells the player who left, their opponent and a spectator three different things', () => {
    const t = say(en);
    const result = ended('abandon', 0);
    expect(endSentence(t, result, 1, names)).toBe('You left the game, and your opponent claimed the win.');
    expect(endSentence(t, result, 0, names)).toBe('Your opponent, Hổ 845, left; you claimed the win.');
    expect(endSentence(t, result, null, names)).toBe('Hổ 845 left; Mèo 527 claimed the win.');
  });

  it('does the same for resignation and time, in Vietnamese too', () => {
    const t = say(vi);
    expect(endSentence(t, ended('resign', 1), 0, names)).toBe('Bạn đã xin thua.');
    expect(endSentence(t, ended('resign', 1), 1, names)).toBe('Đối thủ của bạn, Mèo 527, đã xin thua.');
    expect(endSentence(t, ended('timeout', 1), null, names)).toBe('Mèo 527 hết giờ; Hổ 845 thắng.');
    expect(endSentence(say(en), ended('timeout', 0), 1, names)).toBe('Your time ran out.');
  });

  it('reads an abort and the rules endings the same for everyone', () => {
    for (const viewer of [0, 1, null] as const) {
      expect(endSentence(say(en), ended('abort', null), viewer, names)).toBe('Aborted before the first move.');
      expect(endSentence(say(en), { reason: 'quan-gone', winner: 0, score: [40, 30] }, viewer, names)).toBe('Both quan squares are empty.');
    }
  });

  it('has a sentence for every reason in both languages, with no placeholder left', () => {
    const reasons: MatchResult['reason'][] = ['quan-gone', 'no-refill', 'ply-limit', 'repetition', 'resign', 'timeout', 'abandon', 'abort'];
    for (const dictionary of [en, vi]) {
      for (const reason of reasons) {
        for (const viewer of [0, 1, null] as const) {
          const text = endSentence(say(dictionary), ended(reason, reason === 'abort' ? null : 0), viewer, names);
          expect(text).not.toMatch(/[{}]/);
          expect(text.length).toBeGreaterThan(5);
        }
      }
    }
  });
});
