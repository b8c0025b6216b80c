import { FRAME_MS, type BoardFrame } from './frames.js';

/** Milliseconds a ply's frames take at speed factor 1. */
export function sowingMs(frames: readonly BoardFrame[]): number {
  return frames.reduce((sum, frame) => sum + FRAME_MS[frame.kind ?? 'drop'], 0);
}

/**
 * The speed factor to show a ply with. In a timed game the next clock
 * starts once the ply's sowing allowance is over (`withinMs` from now; the
 * allowance is this sowing at the default speed, capped), so the ply is
 * shown within it: at the default speed at most, whatever slower speed was
 * chosen (that is for untimed games and replays), and faster when the
 * allowance is nearly spent or capped. Null `withinMs`: an untimed game.
 */
export function paceFactor(factor: number, msAtOne: number, withinMs: number | null): number {
  if (factor <= 0 || withinMs === null || msAtOne <= 0) return factor;
  return Math.min(factor, 1, Math.max(0, withinMs) / msAtOne);
}
