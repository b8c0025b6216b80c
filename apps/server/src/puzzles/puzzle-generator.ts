// Puzzles from self-play, stored as they are found: the `pnpm
// puzzles:generate` command and a new site's first start both use it. Each
// pool call is one self-play game (its screen, verification and line); the
// games are seeded from the clock, so a second run finds new puzzles.

import type { EnginePool } from '@oanquan/engine';
import type { Database } from '../db/database.js';
import { storePuzzles } from './puzzle-store.js';

export interface GenerateOptions {
  /** New puzzles to store before stopping. */
  readonly count: number;
  /** Games searched at once: the pool's threads for a command run alone, one for a server, which has people to serve. */
  readonly parallel: number;
  /** Stops early when this says so (a server shutting down). */
  readonly stopped?: () => boolean;
  readonly onProgress?: (stored: number, games: number) => void;
  /** The first game's seed; the clock's milliseconds unless given. */
  readonly seed?: number;
}

export interface GenerateResult {
  readonly stored: number;
  readonly games: number;
}

/** Most games give a puzzle or two; past this many games without reaching the count, something is wrong. */
const GAMES_PER_PUZZLE_CEILING = 20;

export async function generatePuzzles(db: Database, pool: EnginePool, options: GenerateOptions): Promise<GenerateResult> {
  let seed = options.seed ?? Date.now() % 2 ** 31;
  let stored = 0;
  /** Puzzles being stored right now by the lanes: counted ahead, so that lanes storing at once never overshoot the count. */
  let storing = 0;
  let games = 0;
  const done = () => stored >= options.count || options.stopped?.() === true || games >= GAMES_PER_PUZZLE_CEILING * options.count;
  const lane = async () => {
    while (!done()) {
      const puzzles = await pool.selfPlayPuzzles({ seed: seed++ });
      games++;
      if (done()) break;
      const take = Math.max(0, Math.min(puzzles.length, options.count - stored - storing));
      storing += take;
      const fresh = await storePuzzles(db, puzzles.slice(0, take), { kind: 'self-play' }).finally(() => (storing -= take));
      stored += fresh;
      options.onProgress?.(stored, games);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, lane));
  return { stored, games };
}
