import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Metrics } from '../metrics/metrics.js';
import { BotDriver } from './bot-driver.js';
import { BotGames } from './bot-games.js';
import { BotPlayers } from './bot-players.js';
import { LazyEngine } from './lazy-engine.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Games against the computer, started on a player's request. */
    botGames: BotGames;
  }
}

export const botsPlugin = fp<{ config: Config; db: Database; metrics: Metrics }>(
  async (app, { config, db, metrics }) => {
    // A pool of its own, so that an analysis never holds up a computer's move.
    const engine = new LazyEngine({ threads: config.ENGINE_THREADS, nice: config.ENGINE_NICE });
    const settings = {
      thinkMs: config.BOT_THINK_MS,
      moveDelayMs: config.BOT_MOVE_DELAY_MS,
      sweepEveryMs: config.BOT_SWEEP_MS,
      databaseSlots: config.BOT_DATABASE_SLOTS,
      searchSlots: config.ENGINE_THREADS,
    };
    const bots = new BotDriver(db, app.matches, engine.get, app.presence, app.log, settings, (level, seconds, nodes) => {
      metrics.engineMove.observe({ level }, seconds);
      if (nodes !== null) metrics.engineNodes.observe({ level }, nodes);
    });
    bots.start();
    const caps = { perPlayer: config.BOT_GAMES_PER_PLAYER, perAddress: config.BOT_GAMES_PER_ADDRESS };
    app.decorate('botGames', new BotGames(db, app.rooms, new BotPlayers(db), caps, (matchId, address) => bots.started(matchId, address), app.counters));
    app.addHook('preClose', () => bots.stop());
    app.addHook('onClose', () => engine.close());
  },
  { name: 'bots', dependencies: ['matches', 'presence', 'rooms', 'limits'] },
);
