import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import type { Server } from 'socket.io';

export interface RedisLink {
  /** Whether broadcasts reach the other processes right now. */
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * With several server processes behind a load balancer, a broadcast must reach
 * the sockets of every process; Redis streams carry it.
 *
 * While Redis is unreachable, a broadcast must still reach this process's own
 * sockets at once: the adapter delivers locally only after its stream write
 * settles, and the client would queue that write until Redis is back. So a
 * write is refused at once while disconnected (the adapter then delivers
 * locally), and what the other processes missed meanwhile they read from the
 * database (cluster/match-feed.ts), so clients catch up by version. The stream readers keep the
 * client's offline queue: they wait for Redis rather than spin.
 */
export async function attachRedisAdapter(io: Server, url: string, log?: FastifyBaseLogger): Promise<RedisLink> {
  // No command timeout: node-redis's default (5 s) arms an AbortSignal.timeout per command, a timer that cannot be
  // cancelled and that fires 5 s later, building a DOMException with its stack while the signal lives: with one
  // PUBLISH per move, a timer, an exception and their garbage per move on every process (about 2-3 % of a
  // process's time under load). Nothing here waits on a reply: a publish is fire and forget, and the stream
  // readers block for 5 s by themselves (a timeout as long only raced their answer).
  const client = createClient({ url, commandOptions: { timeout: 0 } });
  let lost = false;
  client.on('error', (error: Error) => {
    // Without a listener an 'error' would crash the process; one line per outage is enough.
    if (!lost) log?.warn({ err: error }, 'Redis unreachable: broadcasts reach this process only');
    lost = true;
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    log?.info('Redis reachable again');
  });
  await client.connect();
  io.adapter(createAdapter(client));
  const adapter = io.of('/').adapter as unknown as { doPublish(message: unknown): Promise<string> };
  const publish = adapter.doPublish.bind(adapter);
  adapter.doPublish = (message) => (client.isReady ? publish(message) : Promise.reject(new Error('Redis is not connected')));
  return {
    get connected() {
      return client.isReady;
    },
    async close() {
      // A polite close waits for Redis to answer; without Redis, just drop the connection.
      if (client.isReady) await client.close();
      else if (client.isOpen) client.destroy();
    },
  };
}
