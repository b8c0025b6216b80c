import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { GameServer } from '../realtime/game-server.js';
import { ArenaDirector } from './arena-director.js';
import { socketAnnouncer } from './arena-edge.js';
import { ArenaLimits } from './arena-limits.js';
import { ARENA_REPEAT_AFTER_MS } from './arena-pairing.js';
import { ArenaService } from './arena-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    arenas: ArenaService;
    arenaDirector: ArenaDirector;
    arenaLimits: ArenaLimits;
  }
}

/**
 * Arena tournaments: the pairing (one process at a time), told of every
 * ended match so that it pairs at once; reads served from memory, their
 * rows read at most once a tick; reads, joins and pauses budgeted.
 */
export const arenasPlugin = fp<{ config: Config; db: Database; io: GameServer }>(
  async (app, { config, db, io }) => {
    const repeatAfterMs = config.ARENA_REPEAT_AFTER_MS ?? ARENA_REPEAT_AFTER_MS;
    const director = new ArenaDirector(db, socketAnnouncer(io), app.log, { tickMs: config.ARENA_TICK_MS, repeatAfterMs, schedule: config.ARENA_SCHEDULE === 'on' });
    app.matches.observe(director);
    director.start();
    app.decorate('arenas', new ArenaService(db, undefined, config.ARENA_TICK_MS, repeatAfterMs));
    app.decorate('arenaDirector', director);
    app.decorate(
      'arenaLimits',
      new ArenaLimits(app.counters, {
        perPlayer: { read: config.ARENA_READS_PER_MINUTE, entry: config.ARENA_ENTRIES_PER_MINUTE },
        perAddress: { read: config.ARENA_READS_PER_MINUTE_PER_ADDRESS, entry: config.ARENA_ENTRIES_PER_MINUTE_PER_ADDRESS },
      }),
    );
    app.addHook('preClose', () => director.stop());
  },
  { name: 'arenas', dependencies: ['matches', 'limits'] },
);
