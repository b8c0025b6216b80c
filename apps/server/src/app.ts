import Fastify, { type FastifyInstance } from 'fastify';
import { Server as SocketServer } from 'socket.io';
import { ErrorCode, type ErrorBody } from '@oanquan/protocol';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { healthRoutes } from './http/health.js';
import { webRoutes } from './http/web-handler.js';
import { loggerOptions } from './logger.js';
import { attachRedisAdapter } from './redis-adapter.js';

export interface App {
  http: FastifyInstance;
  io: SocketServer;
  /** Stops accepting, closes every socket, then the database. */
  close(): Promise<void>;
}

export async function buildApp(config: Config, db: Database): Promise<App> {
  const http = Fastify({ logger: loggerOptions(config), bodyLimit: 64 * 1024 });
  const io = new SocketServer(http.server, { serveClient: false });
  const redis = config.REDIS_URL ? await attachRedisAdapter(io, config.REDIS_URL) : undefined;

  http.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const body: ErrorBody = {
      ok: false,
      code: status >= 500 ? ErrorCode.Internal : ErrorCode.BadRequest,
      message: status >= 500 ? 'Internal error' : error.message,
    };
    return reply.status(status).send(body);
  });

  await http.register(
    async (api) => {
      await api.register(healthRoutes, { db });
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
        // io.close() also closes the HTTP server it is attached to.
        await new Promise<void>((resolve) => io.close(() => resolve()));
        await http.close();
        await redis?.close();
        await db.close();
      })();
      return closing;
    },
  };
}
