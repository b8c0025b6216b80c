import Fastify, { type FastifyInstance } from 'fastify';
import { Server as SocketServer } from 'socket.io';
import { limits } from '@oanquan/protocol';
import { arenasPlugin } from './arenas/arenas-plugin.js';
import { analysisPlugin } from './analysis/analysis-plugin.js';
import { botsPlugin } from './bots/bots-plugin.js';
import { cleanupPlugin } from './cleanup/cleanup-plugin.js';
import { feedPlugin } from './cluster/feed-plugin.js';
import { outagePlugin } from './cluster/outage-plugin.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { countedHotSql } from './db/hot-sql.js';
import { httpPlugin } from './http/http-plugin.js';
import { handleHttpError } from './http/error-handler.js';
import { limitsPlugin } from './limits/limits-plugin.js';
import { loggerOptions } from './logger.js';
import { matchesPlugin } from './matches/matches-plugin.js';
import { matchmakingPlugin } from './matchmaking/matchmaking-plugin.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { Metrics } from './metrics/metrics.js';
import { playersPlugin } from './players/players-plugin.js';
import { presencePlugin } from './presence/presence-plugin.js';
import { puzzlesPlugin } from './puzzles/puzzles-plugin.js';
import type { GameServer } from './realtime/game-server.js';
import { attachRedisAdapter } from './redis-adapter.js';
import { redisNames } from './redis-names.js';
import { roomsPlugin } from './rooms/rooms-plugin.js';
import { socialPlugin } from './social/social-plugin.js';
import { letSocketsGo } from './socket/let-sockets-go.js';
import { socketPlugin } from './socket/socket-plugin.js';
import { defaultSocketLimits, type SocketLimits } from './socket/socket-limits.js';
import { socketParser } from './socket/socket-parser.js';

export interface App {
  http: FastifyInstance;
  io: GameServer;
  metrics: Metrics;
  /** The port of GET /metrics, when METRICS_PORT is set. */
  metricsPort?: number;
  /** Stops accepting, closes every socket, then the database. */
  close(): Promise<void>;
  /**
   * Leaves a cluster gently (SIGTERM): answers not ready so the proxy routes
   * elsewhere, refuses new sockets, finishes the changes in progress, tells
   * its sockets to reconnect (through the proxy, to another node), then closes.
   */
  drain(): Promise<void>;
}

export interface AppOptions {
  /** Tests lower these to show the limits work without sending thousands of messages. */
  socketLimits?: Partial<SocketLimits>;
}

export async function buildApp(config: Config, db: Database, options: AppOptions = {}): Promise<App> {
  const http = Fastify({
    logger: loggerOptions(config),
    bodyLimit: 64 * 1024,
    trustProxy: config.TRUST_PROXY,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    // Node enforces the request and header timeouts on a periodic sweep; sweep often enough to cut a slow sender near its deadline.
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(5_000, Math.ceil(config.HTTP_HEADERS_TIMEOUT_MS / 2)),
    },
    frameworkErrors: handleHttpError,
    // A concern may wait for the database or Redis as it registers (an outage credited first): as long as it takes, as before plugins.
    pluginTimeout: 0,
  });
  let draining = false;
  const socketLimits: SocketLimits = {
    ...defaultSocketLimits,
    maxSocketsPerPlayer: config.MAX_SOCKETS_PER_PLAYER,
    maxSocketsPerAddress: config.MAX_SOCKETS_PER_ADDRESS,
    ...options.socketLimits,
  };
  const io: GameServer = new SocketServer(http.server, {
    serveClient: false,
    maxHttpBufferSize: limits.maxTransportBytes,
    parser: socketParser(socketLimits),
    // A draining node takes no new sockets: the client's retry goes through the proxy to another.
    allowRequest: (_request, answer) => answer(draining ? 'draining' : null, !draining),
  });
  const redis = config.REDIS_URL ? await attachRedisAdapter(io, config.REDIS_URL, http.log, redisNames(config.REDIS_PREFIX)) : undefined;

  const metrics = new Metrics({
    connectedSockets: () => io.of('/').sockets.size,
    liveMatches: () => db.prisma.match.count({ where: { status: { in: ['opener', 'playing'] } } }),
    databaseAnswers: () => db.prisma.$queryRaw`SELECT 1`.then(() => true),
    pool: db.poolStats,
    redisConnected: redis ? () => redis.connected : undefined,
  });
  // Released last (hooks on close run in the reverse order of their registration).
  http.addHook('onClose', async () => {
    await redis?.close();
    await db.close();
  });

  // Each concern registers itself: what it offers the others, what it starts, and how it stops.
  // The concerns' hot statements are counted; the database itself is closed as it was opened (above).
  // Each statement's labelled counter made once, at its first use.
  const statementCounters = new Map<string, { inc(): void }>();
  const countStatement = (statement: string) => {
    let counter = statementCounters.get(statement);
    if (!counter) statementCounters.set(statement, (counter = metrics.hotStatements.labels({ statement })));
    counter.inc();
  };
  const core = { config, db: { ...db, sql: countedHotSql(db.sql, countStatement) }, io, metrics };
  await http.register(limitsPlugin, core);
  await http.register(playersPlugin, core);
  await http.register(roomsPlugin, core);
  await http.register(feedPlugin, { ...core, channel: redis?.channel });
  await http.register(matchesPlugin, core);
  await http.register(presencePlugin, core);
  await http.register(outagePlugin, core);
  await http.register(botsPlugin, core);
  await http.register(analysisPlugin, core);
  await http.register(cleanupPlugin, core);
  await http.register(matchmakingPlugin, core);
  await http.register(socialPlugin, core);
  await http.register(arenasPlugin, core);
  await http.register(puzzlesPlugin, core);
  await http.register(socketPlugin, { ...core, socketLimits });
  await http.register(httpPlugin, { ...core, draining: () => draining });
  // After every concern has stopped what it started: no more sockets, then the changes in progress finish.
  http.addHook('preClose', async () => {
    // io.close() also closes the HTTP server it is attached to.
    await new Promise<void>((resolve) => io.close(() => resolve()));
    await http.matches.drain();
  });
  await http.ready();

  const metricsServer = config.METRICS_PORT === undefined ? undefined : await startMetricsServer(metrics.registry, config.METRICS_PORT, config.METRICS_HOST ?? config.HOST);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await metricsServer?.close();
      await http.close();
    })();
    return closing;
  };
  return {
    http,
    io,
    metrics,
    metricsPort: metricsServer?.port,
    close,
    async drain() {
      draining = true;
      await new Promise((resolve) => setTimeout(resolve, config.DRAIN_NOTICE_MS));
      // Every move taken is answered before the sockets go; those arriving now are sent again elsewhere.
      await http.eventsInFlight.close();
      await http.matches.drain();
      await letSocketsGo(io, config.DRAIN_FLUSH_MS);
      await close();
    },
  };
}
