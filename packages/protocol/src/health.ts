import { z } from 'zod';

/** `GET /api/health` (readiness): 200 when this node can serve, with a real round trip to its database. */
export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgresql']),
});
export type HealthResponse = z.infer<typeof healthResponse>;

/** `GET /api/health` answered 503: the node is up but should get no new traffic, and why. */
export const notReadyResponse = z.object({
  status: z.literal('not ready'),
  database: z.enum(['pglite', 'postgresql']),
  reason: z.enum(['database', 'draining']),
});
export type NotReadyResponse = z.infer<typeof notReadyResponse>;

/** `GET /api/health/live` (liveness): 200 as long as the process answers at all; restart it only when this fails. */
export const liveResponse = z.object({ status: z.literal('ok') });
export type LiveResponse = z.infer<typeof liveResponse>;
