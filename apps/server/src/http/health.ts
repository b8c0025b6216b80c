import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';

/** Answers only after a real round trip to the database, so a load balancer never routes to a process whose database is gone. */
export async function healthRoutes(app: FastifyInstance, { db }: { db: Database }) {
  app.get('/health', async () => {
    await db.prisma.$queryRaw`SELECT 1`;
    return { status: 'ok', database: db.kind };
  });
}
