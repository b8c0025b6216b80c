import fp from 'fastify-plugin';
import { LazyEngine } from '../bots/lazy-engine.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { logFailure } from '../errors.js';
import { countPuzzles } from './puzzle-store.js';
import { generatePuzzles } from './puzzle-generator.js';
import { defaultMinerSettings, PuzzleMiner } from './puzzle-miner.js';
import { PuzzleService } from './puzzle-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    puzzles: PuzzleService;
  }
}

const PUZZLES_AT_START = 500;

/**
 * Puzzles: the service behind the routes; on a new site the first puzzles,
 * made from self-play; and the puzzles mined from analysed matches. Both
 * jobs run in the background on a pool of their own (one thread, the lowest
 * priority, one game at a time) so that people's games never wait on them.
 */
export const puzzlesPlugin = fp<{ config: Config; db: Database }>(
  async (app, { config, db }) => {
    app.decorate('puzzles', new PuzzleService(db));
    const wanted = config.PUZZLES_AT_START ?? (config.NODE_ENV === 'test' ? 0 : PUZZLES_AT_START);
    const mining = (config.PUZZLE_MINING ?? (config.NODE_ENV === 'test' ? 'off' : 'on')) === 'on';
    // One thread for both jobs: their searches queue behind each other, never beside people's.
    const engine = new LazyEngine({ threads: 1, nice: config.ENGINE_NICE });
    app.addHook('onClose', () => engine.close());
    if (mining) {
      const miner = new PuzzleMiner(db, engine.get, app.log, { ...defaultMinerSettings, pollMs: config.PUZZLE_MINING_POLL_MS });
      app.addHook('onReady', async () => miner.start());
      app.addHook('preClose', () => miner.stop());
    }
    if (wanted === 0) return;
    let stopping = false;
    let seeding: Promise<void> | undefined;
    app.addHook('onReady', async () => {
      seeding = (async () => {
        const have = await countPuzzles(db);
        if (have >= wanted) return;
        app.log.info({ have, wanted }, 'making the first puzzles from self-play');
        const result = await generatePuzzles(db, engine.get(), { count: wanted - have, parallel: 1, stopped: () => stopping });
        app.log.info(result, 'first puzzles made');
      })().catch((error) => {
        if (!stopping) logFailure(app.log, error, {}, 'making the first puzzles failed');
      });
    });
    app.addHook('preClose', async () => {
      stopping = true;
      await seeding;
    });
  },
  { name: 'puzzles', dependencies: ['limits'] },
);
