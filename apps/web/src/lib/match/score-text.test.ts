import { describe, expect, it } from 'vitest';
import { ratingDeltaText, scorePairText, scoreText } from './score-text.js';

describe('score text', () => {
  it('writes a negative score with a real minus sign, never beside a dash', () => {
    expect(scoreText(-3)).toBe('\u22123');
    expect(scoreText(52)).toBe('52');
    expect(scorePairText([73, -3])).toBe('73 – (\u22123)');
    expect(scorePairText([-1, 71])).toBe('(\u22121) – 71');
    expect(scorePairText([35, 35])).toBe('35 – 35');
  });

  it('writes a rating change signed and rounded as the ratings are shown', () => {
    expect(ratingDeltaText(1500, 1662.4)).toBe('+162');
    expect(ratingDeltaText(1500, 1337.6)).toBe('\u2212162');
    expect(ratingDeltaText(1500.2, 1499.9)).toBe('±0');
  });
});
