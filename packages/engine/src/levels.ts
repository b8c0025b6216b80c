// Bot levels 1–8. Low levels search shallowly and pick among the moves with
// a softmax over their values, so they drop a few points the way a beginner
// does rather than playing at random; higher levels search deeper with less
// noise; level 8 searches as deep as its time allows and takes the best.
// Between deterministic players the first mover's edge swamps depth (depth
// 6 scores 50–55 % against 5), so the steps of the ladder come mostly from
// the temperatures, and the top levels are spread by depths far apart.
// The depths and temperatures were set by matches between neighbouring
// levels, hundreds of games each (see the README for the measured ladder).

export type Level = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export const LEVELS: readonly Level[] = [1, 2, 3, 4, 5, 6, 7, 8];

export interface LevelSettings {
  /** Search depth in plies. */
  readonly depth: number;
  /**
   * Softmax temperature in points: a move worth T points less than another is
   * e times less likely. 0 plays the best move.
   */
  readonly temperature: number;
  /** Time budget per move; the depth is then the deepest iteration allowed. */
  readonly timeMs?: number;
}

export const LEVEL_SETTINGS: Readonly<Record<Level, LevelSettings>> = Object.freeze({
  1: { depth: 1, temperature: 9 },
  2: { depth: 2, temperature: 10 },
  3: { depth: 2, temperature: 4.75 },
  4: { depth: 2, temperature: 1.5 },
  5: { depth: 4, temperature: 2.5 },
  6: { depth: 5, temperature: 0 },
  7: { depth: 8, temperature: 0 },
  8: { depth: 64, temperature: 0, timeMs: 100 },
});

export function isLevel(value: unknown): value is Level {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 8;
}
