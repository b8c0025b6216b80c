// The generator behind `pnpm puzzles:generate` and a new site's seeding:
// exactly the count asked for, even with lanes storing at once, and new
// puzzles on a second run.

import { EnginePool } from '@oanquan/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { engines, migratedDatabase } from '../testing/databases.js';
import { countPuzzles } from './puzzle-store.js';
import { generatePuzzles } from './puzzle-generator.js';

const pool = new EnginePool({ threads: 2 });
afterAll(() => pool.close());

describe.each(engines)('generatePuzzles on %s', (engine) => {
  it('stores exactly the count asked for, then more from other games', async () => {
    const db = await migratedDatabase(engine);
    try {
      const progress: number[] = [];
      const first = await generatePuzzles(db, pool, { count: 7, parallel: 2, seed: 1, onProgress: (stored) => progress.push(stored) });
      expect(first.stored).toBe(7);
      expect(await countPuzzles(db)).toBe(7);
      expect(progress.at(-1)).toBe(7);
      const second = await generatePuzzles(db, pool, { count: 3, parallel: 1, seed: 1000 });
      expect(second.stored).toBe(3);
      expect(await countPuzzles(db)).toBe(10);
      expect(await db.prisma.puzzle.count({ where: { source: 'self-play', rating: { gt: 0 }, deviation: 250 } })).toBe(10);
    } finally {
      await db.close();
    }
  });
});
