import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Metrics } from '../metrics/metrics.js';
import { BotDriver } from './bot-driver.js';
import { BotGames } from './bot-games.js';
import { BotPlayers } from './bot-players.js';
import { LazyEngine } from './lazy-engine.js';
import { MovePriority } from './move-priority.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Games against the computer, started on a player's request. */
    botGames: BotGames;
    /** The order people's moves are taken in: games between people before games against the computer. */
    movePriority: MovePriority;
  }
}

export const botsPlugin = fp<{ config: Config; db: Database; metrics: Metrics }>(
  async (app, { config, db, metrics }) => {
    // A pool of its own, so that an analysis never holds up a computer's move.
    // The computer's searches end by their move's deadline, so they can give the core up to anyone (the idle class).
    const engine = new LazyEngine({ threads: config.ENGINE_THREADS, nice: config.ENGINE_NICE, idle: true });
    // Every game against the computer waits at most once per address, and once per game whose starter is not known here.
    const lane = (width: number) => ({ width, bound: config.BOT_QUEUE_BOUND, boundPerKey: config.BOT_GAMES_PER_ADDRESS, maxWaitMs: config.BOT_YIELD_MAX_WAIT_MS });
    const settings = {
      thinkMs: config.BOT_THINK_MS,
      moveDelayMs: config.BOT_MOVE_DELAY_MS,
      sweepEveryMs: config.BOT_SWEEP_MS,
      idleMs: config.BOT_GAME_IDLE_MS,
      database: lane(config.BOT_DATABASE_SLOTS),
      searchSlots: config.ENGINE_THREADS,
    };
    const priority: MovePriority = new MovePriority(
      (matchId) => bots.againstComputer(matchId),
      { perSecond: config.BOT_MOVES_PER_ADDRESS_PER_SECOND, ceilingPerSecond: config.BOT_MOVES_PER_ADDRESS_MAX_PER_SECOND },
      lane(config.BOT_DATABASE_SLOTS),
    );
    const bots: BotDriver = new BotDriver(db, app.matches, engine.get, app.presence, app.log, settings, priority.people, (level, seconds, nodes) => {
      metrics.engineMove.observe({ level }, seconds);
      if (nodes !== null) metrics.engineNodes.observe({ level }, nodes);
    });
    bots.start();
    const caps = { perPlayer: config.BOT_GAMES_PER_PLAYER, perAddress: config.BOT_GAMES_PER_ADDRESS };
    app.decorate('movePriority', priority);
    app.decorate('botGames', new BotGames(db, app.rooms, new BotPlayers(db), caps, (matchId, address) => bots.started(matchId, address), app.counters));
    app.addHook('preClose', () => bots.stop());
    app.addHook('onClose', () => engine.close());
  },
  { name: 'bots', dependencies: ['matches', 'presence', 'rooms', 'limits'] },
);
