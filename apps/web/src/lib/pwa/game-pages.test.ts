import { describe, expect, it } from 'vitest';
import { isGamePage } from './game-pages';

describe('isGamePage', () => {
  it('is a room or an arena', () => {
    expect(isGamePage('/r/AbC123xyz')).toBe(true);
    expect(isGamePage('/a/Spring2026/')).toBe(true);
  });
  it('is not the home page, a replay, a profile, the rules or TV', () => {
    for (const path of ['/', '/m/42', '/p/someone', '/rules', '/tv', '/r/', '/room/x', '/r/x/y']) expect(isGamePage(path)).toBe(false);
  });
});
