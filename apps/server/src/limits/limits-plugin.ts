import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { MemoryCounters, type Counters } from './counters.js';
import { redisNames } from '../redis-names.js';
import { SharedCounters } from './shared-counters.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What the limits that protect people count with: across every process when they share Redis, else this process's. */
    counters: Counters;
  }
}

export const limitsPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const shared = config.REDIS_URL ? new SharedCounters(config.REDIS_URL, app.log, { prefix: redisNames(config.REDIS_PREFIX).limits }) : undefined;
    await shared?.connect();
    const counters: Counters = shared ?? new MemoryCounters();
    app.decorate('counters', counters);
    app.addHook('onClose', async () => shared?.close());
  },
  { name: 'limits' },
);
