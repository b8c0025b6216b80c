// Puzzle mining through the worker pool gives what the same calls give in-process.

import { afterAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../engine-pool.js';
import { selfPlayPuzzles } from './self-play.js';

const pool = new EnginePool({ threads: 1 });
afterAll(() => pool.close());

describe('EnginePool puzzles', () => {
  it('mines self-play and a finished game in a worker', async () => {
    const here = selfPlayPuzzles({ seed: 5 });
    expect(await pool.selfPlayPuzzles({ seed: 5, limitMs: 60_000 })).toEqual(here);
    expect(await pool.gamePuzzles({ moves: [] }, { limitMs: 60_000 })).toEqual([]);
  });
});
