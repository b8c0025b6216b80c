import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { clientAddress, clientScheme } from '../http/client-address.js';
import type { Metrics } from '../metrics/metrics.js';
import type { GameServer } from '../realtime/game-server.js';
import { QuickPhrases } from './quick-phrases.js';
import { releaseRequests } from './release-requests.js';
import type { EventsInFlight } from './events-in-flight.js';
import { attachSocketHandlers } from './socket-handlers.js';
import type { SocketLimits } from './socket-limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The client events being answered: a drain waits for them before the sockets go. */
    eventsInFlight: EventsInFlight;
  }
}

/** The socket edge: every client event handed to the concern that answers it. */
export const socketPlugin = fp<{ config: Config; io: GameServer; metrics: Metrics; socketLimits: SocketLimits }>(
  async (app, { config, io, metrics, socketLimits }) => {
    const { players, costs, matches, feed, presence, matchmaker, counters, blocks, challenges, arenas, arenaLimits } = app;
    const phrases = new QuickPhrases(io, matches, blocks, counters, {
      windowMs: config.ROOM_PHRASES_WINDOW_MS,
      perPlayer: config.ROOM_PHRASES_PER_PLAYER,
      spectators: config.ROOM_PHRASES_SPECTATORS,
    });
    const services = { players, costs, matches, feed, presence, matchmaker, phrases, challenges, arenas, arenaLimits, metrics, counters, movePriority: app.movePriority };
    app.decorate('eventsInFlight', attachSocketHandlers(io, services, app.log, socketLimits, clientAddress(config.TRUST_PROXY), clientScheme(config.TRUST_PROXY)));
    releaseRequests(io);
  },
  { name: 'socket', dependencies: ['players', 'matches', 'feed', 'presence', 'matchmaking', 'limits', 'social', 'arenas', 'bots'] },
);
