import fastifyCookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { ErrorCode, type ErrorBody } from '@oanquan/protocol';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { asRefusal, ServiceError } from '../errors.js';
import { AccountExport } from '../data-export/account-export.js';
import { ExportLimits } from '../data-export/export-limits.js';
import type { Metrics } from '../metrics/metrics.js';
import { LiveGameList } from '../social/live-games.js';
import { liveRoutes } from './live-routes.js';
import { KnownDevices } from '../players/known-devices.js';
import { Profiles } from '../players/profiles.js';
import { PlayerSettingsStore } from '../players/player-settings.js';
import { ServerKey } from '../players/server-key.js';
import { blockRoutes } from './block-routes.js';
import { followRoutes } from './follow-routes.js';
import { analysisRoutes } from './analysis-routes.js';
import { arenaRoutes } from './arena-routes.js';
import { botRoutes } from './bot-routes.js';
import { clientScheme } from './client-address.js';
import { exportRoutes } from './export-routes.js';
import { abortedByClient, handleHttpError } from './error-handler.js';
import { healthRoutes } from './health.js';
import { matchRoutes } from './match-routes.js';
import { playerRoutes } from './player-routes.js';
import { puzzleRoutes } from './puzzle-routes.js';
import { rateLimits } from './rate-limits.js';
import { roomRoutes } from './room-routes.js';
import { crossSiteRefusal } from './same-site.js';
import { securityHeaders } from './security-headers.js';
import { sessionRoutes } from './session-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { webRoutes } from './web-handler.js';

/** The HTTP edge: one error handler, the security headers, the API under /api behind the same-site check and the rate limits, and the web app. */
export const httpPlugin = fp<{ config: Config; db: Database; metrics: Metrics; draining: () => boolean }>(
  async (app, { config, db, metrics, draining }) => {
    const { players, accounts, closures, costs, counters, rooms, history, analyses, botGames, blocks, follows, presence, arenas, arenaDirector, arenaLimits, puzzles } = app;
    const schemeOf = clientScheme(config.TRUST_PROXY);
    app.setErrorHandler(handleHttpError);
    app.addHook('onError', async (request, _reply, error) => {
      if (!abortedByClient(error, request) && asRefusal(error)?.code === ErrorCode.Unavailable) metrics.databaseUnavailable.inc({ edge: 'http' });
    });
    // Every hang-up, whether or not its request had got as far as reading the body (and so to the error handler).
    app.addHook('onRequestAbort', async (_request) => {
      metrics.requestsAborted.inc();
    });
    await securityHeaders(app, schemeOf);
    await app.register(fastifyCookie);

    await app.register(
      async (api) => {
        // Before the rate limits, so another site's requests cost its victims nothing.
        api.addHook('onRequest', async (request) => {
          if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
          const refusal = crossSiteRefusal(request.raw, schemeOf(request.raw));
          if (refusal) throw new ServiceError(ErrorCode.CrossSite, refusal, 403);
        });
        const limiters = await rateLimits(api, { players, settings: config, counters, onRefused: () => metrics.rateLimited.inc({ edge: 'http' }) });
        await api.register(healthRoutes, { db, draining });
        const deviceTtlMs = config.SIGN_IN_DEVICE_DAYS * 24 * 3_600_000;
        const devices = new KnownDevices(new ServerKey(db, config.GUEST_TOKEN_SECRET), deviceTtlMs);
        await api.register(sessionRoutes, { players, accounts, closures, costs, cookieSecure: config.COOKIE_SECURE, devices, deviceTtlMs, ...limiters });
        await api.register(roomRoutes, { players, costs, rooms });
        await api.register(matchRoutes, { history });
        await api.register(analysisRoutes, { players, costs, analyses });
        await api.register(botRoutes, { players, costs, botGames });
        await api.register(playerRoutes, { profiles: new Profiles(db, history), players });
        await api.register(arenaRoutes, { players, costs, arenas, director: arenaDirector, limits: arenaLimits });
        await api.register(blockRoutes, { players, costs, blocks });
        await api.register(followRoutes, { players, follows });
        await api.register(settingsRoutes, { players, settings: new PlayerSettingsStore(db) });
        await api.register(puzzleRoutes, { players, costs, puzzles });
        const exportLimits = new ExportLimits(counters, {
          perPlayer: config.RATE_LIMIT_EXPORTS_PER_HOUR,
          perAddress: config.RATE_LIMIT_EXPORTS_PER_ADDRESS_PER_HOUR,
          windowMs: 3_600_000,
          atOnce: config.EXPORTS_AT_ONCE,
        });
        await api.register(exportRoutes, { players, exporter: new AccountExport(db), limits: exportLimits, schemeOf, stallMs: config.EXPORT_STALL_MS });
        await api.register(liveRoutes, { live: new LiveGameList(db, presence, { shown: 8, freshMs: 2000 }) });
        api.all('/*', async (_request, reply) => {
          const body: ErrorBody = { ok: false, code: ErrorCode.NotFound, message: 'No such API route' };
          return reply.status(404).send(body);
        });
      },
      { prefix: '/api' },
    );
    await app.register(webRoutes, { buildDir: config.WEB_BUILD_DIR });
  },
  { name: 'http', dependencies: ['players', 'limits', 'rooms', 'matches', 'analysis', 'bots', 'social', 'presence', 'arenas', 'puzzles'] },
);
