import { FRAME_MS, type BoardFrame } from './frames.js';

/** Below this much time on the viewer's own running clock, sowing is hurried whatever its length. */
export const LOW_CLOCK_MS = 10_000;
/** Sowing is also hurried when the clock holds less than this many times the sowing's length. */
export const CLOCK_TO_SOWING = 4;
/** How long a hurried ply takes on screen at most, in milliseconds. */
export const HURRIED_MS = 600;

/** Milliseconds a ply's frames take at speed factor 1. */
export function sowingMs(frames: readonly BoardFrame[]): number {
  return frames.reduce((sum, frame) => sum + FRAME_MS[frame.kind ?? 'drop'], 0);
}

/**
 * The speed factor to show a ply with. Watching the opponent's sowing costs
 * a player time on their own running clock (`clockMs`; null for anyone
 * whose clock is not running), so when that clock is low the whole ply is
 * squeezed into `HURRIED_MS`.
 */
export function paceFactor(factor: number, msAtOne: number, clockMs: number | null): number {
  if (factor <= 0 || clockMs === null || msAtOne <= 0) return factor;
  const low = clockMs < LOW_CLOCK_MS || clockMs < CLOCK_TO_SOWING * msAtOne * factor;
  return low ? Math.min(factor, HURRIED_MS / msAtOne) : factor;
}
