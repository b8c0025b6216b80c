import type { FastifyInstance } from 'fastify';
import type { LiveResponse, NotReadyResponse } from '@oanquan/protocol';
import type { Database } from '../db/database.js';

/** A database that does not answer within this is as good as gone for a probe. */
const probeTimeoutMs = 2_000;

/**
 * Readiness and liveness, kept apart: a node whose database is unreachable
 * is alive (restarting it would not help, and its sockets may stay) but not
 * ready, so a load balancer sends it no new connections until the database
 * answers again; a draining node is not ready either. Readiness answers
 * only after a real round trip.
 */
export async function healthRoutes(app: FastifyInstance, { db, draining }: { db: Database; draining: () => boolean }) {
  app.get('/health', async (request, reply) => {
    // A node leaving the cluster: the proxy must stop sending it new connections.
    if (draining()) return reply.status(503).send({ status: 'not ready', database: db.kind, reason: 'draining' } satisfies NotReadyResponse);
    try {
      await withTimeout(db.prisma.$queryRaw`SELECT 1`, probeTimeoutMs);
      return { status: 'ok', database: db.kind };
    } catch (error) {
      // Whatever stops a SELECT 1 (refused, cut, too slow) makes this node unfit for new players.
      request.log.warn({ err: error }, 'not ready: database unreachable');
      const body: NotReadyResponse = { status: 'not ready', database: db.kind, reason: 'database' };
      return reply.status(503).send(body);
    }
  });
  app.get('/health/live', async (): Promise<LiveResponse> => ({ status: 'ok' }));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
