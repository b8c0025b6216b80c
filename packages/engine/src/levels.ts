// Bot levels 1–8. Low levels search shallowly and pick among the moves with
// a softmax over their values, so they drop a few points the way a beginner
// does rather than playing at random; higher levels search deeper with less
// noise; level 8 searches as deep as its node budget allows and takes the
// best. Budgets are in depth and nodes, never in time, so that a level plays
// alike on a quiet machine and a busy one: time is only the caller's
// ceiling, which a loaded machine may reach first.
// Between deterministic players the first mover's edge swamps depth (depth
// 6 scores 50–55 % against 5), so the steps of the ladder come mostly from
// the temperatures; level 8 alone plays the best move it finds.
// The depths and temperatures space the levels by the round robin of
// \`pnpm bench\` (BENCH_ROBIN_PAIRS=20, 40 games a pair), where each rating
// below was measured, about 90 points apart:
// from level 1, whom a player who always takes the biggest capture beats,
// to level 8, who beats that player.

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
  /** Node budget per move; the depth is then the deepest iteration allowed. */
  readonly nodes?: number;
  /**
   * Elo-like rating from a round robin of the levels and fixed baselines,
   * with random play at 0 (\`pnpm bench\`): what the page offering the levels shows.
   */
  readonly rating: number;
}

export const LEVEL_SETTINGS: Readonly<Record<Level, LevelSettings>> = Object.freeze({
  1: { depth: 1, temperature: 9, rating: 200 },
  2: { depth: 2, temperature: 14, rating: 300 },
  3: { depth: 2, temperature: 9.5, rating: 390 },
  4: { depth: 2, temperature: 4, rating: 500 },
  5: { depth: 2, temperature: 1.5, rating: 590 },
  6: { depth: 4, temperature: 2.5, rating: 660 },
  7: { depth: 5, temperature: 1, rating: 740 },
  8: { depth: 64, temperature: 0, nodes: 200_000, rating: 810 },
});

export function isLevel(value: unknown): value is Level {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 8;
}
