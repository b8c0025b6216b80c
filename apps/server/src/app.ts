import Fastify, { type FastifyInstance } from 'fastify';
import { Server as SocketServer } from 'socket.io';
import { ErrorCode, limits, type ErrorBody, type MatchEventEnvelope } from '@oanquan/protocol';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { handleHttpError } from './http/error-handler.js';
import { clientAddress } from './http/client-address.js';
import { healthRoutes } from './http/health.js';
import { matchRoutes } from './http/match-routes.js';
import { playerRoutes } from './http/player-routes.js';
import { rateLimits } from './http/rate-limits.js';
import { roomRoutes } from './http/room-routes.js';
import { securityHeaders } from './http/security-headers.js';
import { sessionRoutes } from './http/session-routes.js';
import { webRoutes } from './http/web-handler.js';
import { loggerOptions } from './logger.js';
import { AnalysisRunner } from './analysis/analysis-runner.js';
import { AnalysisService } from './analysis/analysis-service.js';
import { BotDriver } from './bots/bot-driver.js';
import { BotGames } from './bots/bot-games.js';
import { BotPlayers } from './bots/bot-players.js';
import { LazyEngine } from './bots/lazy-engine.js';
import { analysisRoutes } from './http/analysis-routes.js';
import { botRoutes } from './http/bot-routes.js';
import { StaleDataCleanup } from './cleanup/stale-data-cleanup.js';
import { DeadlineSweeper } from './matches/deadline-sweeper.js';
import { MatchHistory } from './matches/match-history.js';
import { MatchService } from './matches/match-service.js';
import { PresenceService } from './matches/presence-service.js';
import { Matchmaker } from './matchmaking/matchmaker.js';
import { PeriodicTask } from './periodic-task.js';
import { PlayerService } from './players/player-service.js';
import { Profiles } from './players/profiles.js';
import { attachRedisAdapter } from './redis-adapter.js';
import { RoomService } from './rooms/room-service.js';
import { roomChannel, type GameServer } from './socket/game-server.js';
import { attachSocketHandlers } from './socket/socket-handlers.js';
import { defaultSocketLimits, type SocketLimits } from './socket/socket-limits.js';
import { socketParser } from './socket/socket-parser.js';

export interface App {
  http: FastifyInstance;
  io: GameServer;
  /** Stops accepting, closes every socket, then the database. */
  close(): Promise<void>;
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
  });
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
  });
  const redis = config.REDIS_URL ? await attachRedisAdapter(io, config.REDIS_URL) : undefined;

  const players = new PlayerService(db);
  const rooms = new RoomService(db);
  const publish = (code: string, envelopes: MatchEventEnvelope[]) => {
    for (const envelope of envelopes) io.to(roomChannel(code)).emit('match:event', envelope);
  };
  const matches = new MatchService(db, publish, config.OPENER_TIMEOUT_MS, config.FIRST_MOVE_TIMEOUT_MS);
  const history = new MatchHistory(db);
  const presence = new PresenceService(io, db, http.log, config.ABANDON_GRACE_MS);
  matches.observe(presence);
  const sweeper = new DeadlineSweeper(db, matches, http.log, { abandonGraceMs: config.ABANDON_GRACE_MS });
  sweeper.start();
  // Two pools, so that an analysis never holds up a computer's move.
  const botEngine = new LazyEngine(config.ENGINE_THREADS);
  const analysisEngine = new LazyEngine(1);
  const bots = new BotDriver(db, matches, botEngine.get, presence, http.log, {
    thinkMs: config.BOT_THINK_MS,
    moveDelayMs: config.BOT_MOVE_DELAY_MS,
    sweepEveryMs: config.BOT_SWEEP_MS,
    threads: config.ENGINE_THREADS,
  });
  bots.start();
  const botGames = new BotGames(db, rooms, new BotPlayers(db), (matchId) => bots.wake(matchId));
  const analysisRunner = new AnalysisRunner(db, analysisEngine.get, http.log);
  analysisRunner.start();
  const analyses = new AnalysisService(
    db,
    { depth: config.ANALYSIS_DEPTH, queueMax: config.ANALYSIS_QUEUE_MAX, perPlayer: config.ANALYSIS_PER_PLAYER },
    () => analysisRunner.wake(),
  );
  const cleanup = new StaleDataCleanup(db, http.log, {
    guestRetentionMs: config.GUEST_RETENTION_DAYS * 24 * 3600 * 1000,
    idleRoomMs: config.IDLE_ROOM_HOURS * 3600 * 1000,
    batchSize: config.CLEANUP_BATCH_SIZE,
  });
  const cleanups = new PeriodicTask(() => cleanup.runLogged(), config.CLEANUP_INTERVAL_MS);
  cleanups.start();
  const matchmaker = new Matchmaker(db, io, http.log, {
    baseGap: config.QUEUE_BASE_GAP,
    gapPerSecond: config.QUEUE_GAP_PER_SECOND,
    tickMs: config.QUEUE_TICK_MS,
  });
  matchmaker.start();
  attachSocketHandlers(io, { players, matches, presence, matchmaker }, http.log, socketLimits, clientAddress(config.TRUST_PROXY));

  http.setErrorHandler(handleHttpError);
  await securityHeaders(http);

  await http.register(
    async (api) => {
      await rateLimits(api, { players, settings: config });
      await api.register(healthRoutes, { db });
      await api.register(sessionRoutes, { players });
      await api.register(roomRoutes, { players, rooms });
      await api.register(matchRoutes, { history });
      await api.register(analysisRoutes, { players, analyses });
      await api.register(botRoutes, { players, botGames });
      await api.register(playerRoutes, { profiles: new Profiles(db, history) });
      api.all('/*', async (_request, reply) => {
        const body: ErrorBody = { ok: false, code: ErrorCode.NotFound, message: 'No such API route' };
        return reply.status(404).send(body);
      });
    },
    { prefix: '/api' },
  );
  await http.register(webRoutes, { buildDir: config.WEB_BUILD_DIR });

  let closing: Promise<void> | undefined;
  return {
    http,
    io,
    close() {
      closing ??= (async () => {
        presence.stop();
        await sweeper.stop();
        cleanup.stop();
        await cleanups.stop();
        await matchmaker.stop();
        await bots.stop();
        await analysisRunner.stop();
        // io.close() also closes the HTTP server it is attached to.
        await new Promise<void>((resolve) => io.close(() => resolve()));
        await http.close();
        await matches.drain();
        await botEngine.close();
        await analysisEngine.close();
        await redis?.close();
        await db.close();
      })();
      return closing;
    },
  };
}
