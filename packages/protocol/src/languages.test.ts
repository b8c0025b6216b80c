import { describe, expect, it } from 'vitest';
import { pickLanguage } from './languages.js';

describe('pickLanguage', () => {
  it('follows the cookie first', () => {
    expect(pickLanguage('en', 'vi-VN,vi;q=0.9')).toBe('en');
    expect(pickLanguage('vi', 'en-US')).toBe('vi');
  });

  it('ignores a cookie it does not know and reads the browser', () => {
    expect(pickLanguage('fr', 'en-GB,en;q=0.9')).toBe('en');
  });

  it('takes the most wanted language it speaks, by weight then order', () => {
    expect(pickLanguage(undefined, 'vi-VN,vi;q=0.9,en;q=0.8')).toBe('vi');
    expect(pickLanguage(undefined, 'fr-FR,fr;q=0.9,en;q=0.8,vi;q=0.7')).toBe('en');
    expect(pickLanguage(undefined, 'en;q=0.5,vi;q=0.6')).toBe('vi');
    expect(pickLanguage(undefined, 'vi;q=0,en;q=0.1')).toBe('en');
  });

  it('defaults to Vietnamese without a header and English for other languages', () => {
    expect(pickLanguage(undefined, null)).toBe('vi');
    expect(pickLanguage(undefined, '')).toBe('vi');
    expect(pickLanguage(undefined, 'de-DE,de;q=0.9')).toBe('en');
  });
});
