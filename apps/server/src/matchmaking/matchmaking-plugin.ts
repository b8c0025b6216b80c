import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Metrics } from '../metrics/metrics.js';
import type { GameServer } from '../realtime/game-server.js';
import { Matchmaker } from './matchmaker.js';

declare module 'fastify' {
  interface FastifyInstance {
    matchmaker: Matchmaker;
  }
}

export const matchmakingPlugin = fp<{ config: Config; db: Database; io: GameServer; metrics: Metrics }>(
  async (app, { config, db, io, metrics }) => {
    const matchmaker = new Matchmaker(db, io, app.log, {
      baseGap: config.QUEUE_BASE_GAP,
      gapPerSecond: config.QUEUE_GAP_PER_SECOND,
      tickMs: config.QUEUE_TICK_MS,
      onPaired: (pool, waitedMs) => metrics.queueWait.observe({ pool }, waitedMs / 1000),
    });
    matchmaker.start();
    app.decorate('matchmaker', matchmaker);
    app.addHook('preClose', () => matchmaker.stop());
  },
  { name: 'matchmaking' },
);
