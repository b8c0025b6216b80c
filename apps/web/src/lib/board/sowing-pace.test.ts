import { describe, expect, it } from 'vitest';
import { newGame, play } from '@oanquan/rules';
import { sowingFrames } from './frames.js';
import { paceFactor, sowingMs } from './sowing-pace.js';

describe('the pace of sowing', () => {
  const state = newGame();
  const result = play(state, { square: 1, dir: -1 });
  if (!result.ok) throw new Error(result.code);
  const ms = sowingMs(sowingFrames(state.position, result.events, result.state.position));

  it('adds up the frames of a ply (R9 E1: two pickups, ten drops, a capture)', () => {
    expect(ms).toBe(320 + 5 * 170 + 320 + 5 * 170 + 480);
  });

  it('keeps the chosen speed in an untimed game', () => {
    expect(paceFactor(1.8, ms, null)).toBe(1.8);
    expect(paceFactor(0, ms, null)).toBe(0);
  });

  it('in a timed game, shows the sowing at the default speed at most, within the time left before the next clock starts', () => {
    expect(paceFactor(1.8, ms, 10_000)).toBe(1);
    expect(paceFactor(0.45, ms, 10_000)).toBe(0.45);
    expect(paceFactor(1, ms, ms / 2) * ms).toBeCloseTo(ms / 2);
    expect(paceFactor(1.8, ms, -100)).toBe(0);
    expect(paceFactor(0, ms, 1_000)).toBe(0);
  });
});
