import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { Server as SocketServer } from 'socket.io';
import { ErrorCode, limits, type ErrorBody, type MatchEventEnvelope } from '@oanquan/protocol';
import { ServiceError } from './errors.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { asRefusal } from './errors.js';
import { handleHttpError } from './http/error-handler.js';
import { clientAddress, clientScheme } from './http/client-address.js';
import { healthRoutes } from './http/health.js';
import { matchRoutes } from './http/match-routes.js';
import { playerRoutes } from './http/player-routes.js';
import { rateLimits } from './http/rate-limits.js';
import { crossSiteRefusal } from './http/same-site.js';
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
import { MatchFeed } from './cluster/match-feed.js';
import { OutageCredit } from './cluster/outage-credit.js';
import { DeadlineSweeper } from './matches/deadline-sweeper.js';
import { MatchHistory } from './matches/match-history.js';
import { MatchService } from './matches/match-service.js';
import { PresenceService } from './matches/presence-service.js';
import { MemoryCounters } from './limits/counters.js';
import { SharedCounters } from './limits/shared-counters.js';
import { connectedPresenceStore, LocalPresenceStore } from './matches/presence-store.js';
import { Matchmaker } from './matchmaking/matchmaker.js';
import { Metrics } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { PeriodicTask } from './periodic-task.js';
import { Accounts } from './players/accounts.js';
import { CostBudgets } from './players/cost-budgets.js';
import { GuestTokens } from './players/guest-tokens.js';
import { PlayerService } from './players/player-service.js';
import { Profiles } from './players/profiles.js';
import { Sessions } from './players/sessions.js';
import { attachRedisAdapter } from './redis-adapter.js';
import { RoomService } from './rooms/room-service.js';
import { sessionChannel, type GameServer } from './socket/game-server.js';
import { releaseRequests } from './socket/release-requests.js';
import { QuickPhrases } from './socket/quick-phrases.js';
import { attachSocketHandlers } from './socket/socket-handlers.js';
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
  const redis = config.REDIS_URL ? await attachRedisAdapter(io, config.REDIS_URL, http.log) : undefined;

  const metrics = new Metrics({
    connectedSockets: () => io.of('/').sockets.size,
    liveMatches: () => db.prisma.match.count({ where: { status: { in: ['opener', 'playing'] } } }),
    pool: db.poolStats,
    redisConnected: redis ? () => redis.connected : undefined,
  });
  const sessions = new Sessions(db, {
    ttlMs: config.SESSION_TTL_DAYS * 24 * 3600 * 1000,
    // Through the adapter, so a revoked session's sockets close on every process.
    onRevoked: (ids) => io.in(ids.map(sessionChannel)).disconnectSockets(true),
  });
  const players = new PlayerService(db, sessions, new GuestTokens(db, { secret: config.GUEST_TOKEN_SECRET, ttlMs: config.SESSION_TTL_DAYS * 24 * 3600 * 1000 }));
  const accounts = new Accounts(db, sessions, players);
  const rooms = new RoomService(db);
  const feed = new MatchFeed(io, db, http.log, redis !== undefined, config.MATCH_FEED_CHECK_MS);
  feed.start();
  const publish = (code: string, envelopes: MatchEventEnvelope[]) => {
    metrics.eventsPublished.inc(envelopes.length);
    return feed.publish(code, envelopes);
  };
  const matches = new MatchService(db, publish, config.OPENER_TIMEOUT_MS, config.FIRST_MOVE_TIMEOUT_MS, undefined, { maxMovesInFlight: config.MAX_MOVES_IN_FLIGHT });
  feed.onRemoteEvents((envelopes) => matches.follow(envelopes));
  const history = new MatchHistory(db);
  const presenceStore = config.REDIS_URL
    ? await connectedPresenceStore(config.REDIS_URL, config.PRESENCE_HEARTBEAT_MS, http.log)
    : new LocalPresenceStore();
  // The limits that protect people count across every process when they share Redis.
  const sharedCounters = config.REDIS_URL ? new SharedCounters(config.REDIS_URL, http.log) : undefined;
  await sharedCounters?.connect();
  const counters = sharedCounters ?? new MemoryCounters();
  const minute = 60_000;
  const costs = new CostBudgets(players, counters, {
    newPlayersPerAddress: { max: config.RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR, windowMs: 60 * minute },
    perAddress: {
      seat: { max: config.RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE, windowMs: minute },
      room: { max: config.RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE, windowMs: minute },
      engine: { max: config.RATE_LIMIT_ANALYSES_PER_ADDRESS_PER_MINUTE, windowMs: minute },
    },
    perPerson: { seat: { max: config.RATE_LIMIT_SEATS_PER_MINUTE, windowMs: minute } },
  });
  const presence = new PresenceService(io, db, http.log, config.ABANDON_GRACE_MS, presenceStore, config.PRESENCE_HEARTBEAT_MS);
  presence.start();
  matches.observe(presence);
  // Before any sweep judges a clock: a service that was down as a whole charges nobody for it.
  const outages = new OutageCredit(db, http.log, { openerTimeoutMs: config.OPENER_TIMEOUT_MS, publish });
  matches.creditOutagesWith(() => outages.settled());
  outages.onResume(() => matches.forgetCached());
  await outages.pulse();
  outages.start();
  const sweeper = new DeadlineSweeper(db, matches, http.log, { abandonGraceMs: config.ABANDON_GRACE_MS });
  sweeper.start();
  // Two pools, so that an analysis never holds up a computer's move.
  const botEngine = new LazyEngine({ threads: config.ENGINE_THREADS, nice: config.ENGINE_NICE });
  const analysisEngine = new LazyEngine({ threads: 1, nice: config.ENGINE_NICE });
  const bots = new BotDriver(db, matches, botEngine.get, presence, http.log, {
    thinkMs: config.BOT_THINK_MS,
    moveDelayMs: config.BOT_MOVE_DELAY_MS,
    sweepEveryMs: config.BOT_SWEEP_MS,
    databaseSlots: config.BOT_DATABASE_SLOTS,
    searchSlots: config.ENGINE_THREADS,
  }, (level, seconds, nodes) => {
    metrics.engineMove.observe({ level }, seconds);
    if (nodes !== null) metrics.engineNodes.observe({ level }, nodes);
  });
  bots.start();
  const botGameCaps = { perPlayer: config.BOT_GAMES_PER_PLAYER, perAddress: config.BOT_GAMES_PER_ADDRESS };
  const botGames = new BotGames(db, rooms, new BotPlayers(db), botGameCaps, (matchId, address) => bots.started(matchId, address), counters);
  const analysisRunner = new AnalysisRunner(db, analysisEngine.get, http.log);
  analysisRunner.start();
  const analyses = new AnalysisService(
    db,
    { depth: config.ANALYSIS_DEPTH, queueMax: config.ANALYSIS_QUEUE_MAX, perPlayer: config.ANALYSIS_PER_PLAYER, perAddress: config.ANALYSIS_PER_ADDRESS },
    () => analysisRunner.wake(),
    counters,
  );
  const cleanup = new StaleDataCleanup(db, http.log, {
    guestRetentionMs: config.GUEST_RETENTION_DAYS * 24 * 3600 * 1000,
    idleRoomMs: config.IDLE_ROOM_HOURS * 3600 * 1000,
    endedSessionMs: config.GUEST_RETENTION_DAYS * 24 * 3600 * 1000,
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
  const schemeOf = clientScheme(config.TRUST_PROXY);
  const eventsInFlight = attachSocketHandlers(io, { players, costs, matches, feed, presence, matchmaker, phrases: new QuickPhrases(io, matches), metrics, counters }, http.log, socketLimits, clientAddress(config.TRUST_PROXY), schemeOf);
  releaseRequests(io);

  http.setErrorHandler(handleHttpError);
  http.addHook('onError', async (_request, _reply, error) => {
    if (asRefusal(error)?.code === ErrorCode.Unavailable) metrics.databaseUnavailable.inc({ edge: 'http' });
  });
  await securityHeaders(http, schemeOf);
  await http.register(fastifyCookie);

  await http.register(
    async (api) => {
      // Before the rate limits, so another site's requests cost its victims nothing.
      api.addHook('onRequest', async (request) => {
        if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
        const refusal = crossSiteRefusal(request.raw, schemeOf(request.raw));
        if (refusal) throw new ServiceError(ErrorCode.CrossSite, refusal, 403);
      });
      const limiters = await rateLimits(api, { players, settings: config, counters, onRefused: () => metrics.rateLimited.inc({ edge: 'http' }) });
      await api.register(healthRoutes, { db, draining: () => draining });
      await api.register(sessionRoutes, { players, accounts, costs, cookieSecure: config.COOKIE_SECURE, ...limiters });
      await api.register(roomRoutes, { players, costs, rooms });
      await api.register(matchRoutes, { history });
      await api.register(analysisRoutes, { players, costs, analyses });
      await api.register(botRoutes, { players, costs, botGames });
      await api.register(playerRoutes, { profiles: new Profiles(db, history), players });
      api.all('/*', async (_request, reply) => {
        const body: ErrorBody = { ok: false, code: ErrorCode.NotFound, message: 'No such API route' };
        return reply.status(404).send(body);
      });
    },
    { prefix: '/api' },
  );
  await http.register(webRoutes, { buildDir: config.WEB_BUILD_DIR });

  const metricsServer = config.METRICS_PORT === undefined ? undefined : await startMetricsServer(metrics.registry, config.METRICS_PORT, config.METRICS_HOST ?? config.HOST);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await metricsServer?.close();
      presence.stop();
      await feed.stop();
      await outages.stop();
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
      await presence.close();
      await sharedCounters?.close();
      await redis?.close();
      await db.close();
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
      await eventsInFlight.close();
      await matches.drain();
      io.local.disconnectSockets(true);
      await close();
    },
  };
}
