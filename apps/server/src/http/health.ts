import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';

/** Answers only after a real round trip to the database, so a load balancer never routes to a process whose database is gone. */
export async function healthRoutes(app: FastifyInstance, { db, draining }: { db: Database; draining: () => boolean }) {
  app.get('/health', async (_request, reply) => {
    // A node leaving the cluster: the proxy must stop sending it new connections.
    if (draining()) return reply.status(503).send({ status: 'draining' });
    await db.prisma.$queryRaw`SELECT 1`;
    return { status: 'ok', database: db.kind };
  });
}
