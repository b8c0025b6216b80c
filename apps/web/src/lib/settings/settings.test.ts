import { describe, expect, it } from 'vitest';
import { Settings } from './settings.svelte.js';

describe('the move preview setting', () => {
  it('is on by default in unrated games only, and can be forced either way', () => {
    const prefs = new Settings();
    expect(prefs.preview).toBe('auto');
    expect([prefs.previewIn(false), prefs.previewIn(true), prefs.previewIn(null)]).toEqual([true, false, false]);
    prefs.setPreview('always');
    expect([prefs.previewIn(false), prefs.previewIn(true)]).toEqual([true, true]);
    prefs.setPreview('never');
    expect([prefs.previewIn(false), prefs.previewIn(true)]).toEqual([false, false]);
  });
});

describe('the sowing speed', () => {
  it('is instant under reduced motion until a speed is chosen, and the chosen speed wins', () => {
    const prefs = new Settings();
    expect([prefs.speed, prefs.motionFactor]).toEqual(['normal', 1]);
    prefs.reducedMotion = true;
    expect([prefs.speed, prefs.motionFactor]).toEqual(['instant', 0]);
    prefs.setSpeed('slow');
    expect(prefs.speed).toBe('slow');
    expect(prefs.motionFactor).toBeGreaterThan(1);
  });
});
