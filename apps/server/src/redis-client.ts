import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';

/**
 * A Redis client for a store the server can do without for a while: a
 * command fails at once while Redis is away (no offline queue), so the
 * caller falls back rather than waits, and an outage is logged once.
 */
export function forgoableRedisClient(url: string, log: FastifyBaseLogger, outage: string) {
  const client = createClient({ url, disableOfflineQueue: true });
  let down = false;
  // Without a listener an 'error' would crash the process; one line per outage is enough.
  client.on('error', (error: Error) => {
    if (!down) log.warn({ err: error }, outage);
    down = true;
  });
  client.on('ready', () => {
    down = false;
  });
  return client;
}
