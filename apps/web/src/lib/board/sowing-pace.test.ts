import { describe, expect, it } from 'vitest';
import { newGame, play } from '@oanquan/rules';
import { sowingFrames } from './frames.js';
import { HURRIED_MS, paceFactor, sowingMs } from './sowing-pace.js';

describe('the pace of sowing', () => {
  const state = newGame();
  const result = play(state, { square: 1, dir: -1 });
  if (!result.ok) throw new Error(result.code);
  const ms = sowingMs(sowingFrames(state.position, result.events, result.state.position));

  it('adds up the frames of a ply (R9 E1: two pickups, ten drops, a capture)', () => {
    expect(ms).toBe(320 + 5 * 170 + 320 + 5 * 170 + 480);
  });

  it('keeps the chosen speed for a spectator, a player whose clock is not running, or a comfortable clock', () => {
    expect(paceFactor(1.8, ms, null)).toBe(1.8);
    expect(paceFactor(1.8, ms, 60_000)).toBe(1.8);
    expect(paceFactor(0, ms, 1_000)).toBe(0);
  });

  it('squeezes the ply when the clock is under ten seconds or under a few times the sowing', () => {
    expect(paceFactor(1, ms, 9_000) * ms).toBeCloseTo(HURRIED_MS);
    expect(paceFactor(1.8, ms, 20_000) * ms).toBeCloseTo(HURRIED_MS);
    expect(paceFactor(1, ms, 20_000)).toBe(1);
  });

  it('never slows a ply that is already quicker than the hurried length', () => {
    expect(paceFactor(0.1, ms, 1_000)).toBe(0.1);
  });
});
