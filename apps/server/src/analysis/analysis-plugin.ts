import fp from 'fastify-plugin';
import { LazyEngine } from '../bots/lazy-engine.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { AnalysisRunner } from './analysis-runner.js';
import { AnalysisService } from './analysis-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    analyses: AnalysisService;
  }
}

export const analysisPlugin = fp<{ config: Config; db: Database }>(
  async (app, { config, db }) => {
    // A pool of its own, so that an analysis never holds up a computer's move.
    const engine = new LazyEngine({ threads: 1, nice: config.ENGINE_NICE });
    const runner = new AnalysisRunner(db, engine.get, app.log);
    runner.start();
    const limits = { depth: config.ANALYSIS_DEPTH, queueMax: config.ANALYSIS_QUEUE_MAX, perPlayer: config.ANALYSIS_PER_PLAYER, perAddress: config.ANALYSIS_PER_ADDRESS };
    app.decorate('analyses', new AnalysisService(db, limits, () => runner.wake(), app.counters));
    app.addHook('preClose', () => runner.stop());
    app.addHook('onClose', () => engine.close());
  },
  { name: 'analysis', dependencies: ['limits'] },
);
