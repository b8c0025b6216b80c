import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createClient } from 'redis';
import type { Server } from 'socket.io';

/**
 * With several server processes behind a load balancer, a broadcast must reach
 * the sockets of every process; Redis streams carry it (and survive a short
 * Redis disconnection, unlike plain pub/sub).
 */
export async function attachRedisAdapter(io: Server, url: string): Promise<{ close(): Promise<void> }> {
  const client = createClient({ url });
  await client.connect();
  io.adapter(createAdapter(client));
  return {
    async close() {
      await client.quit();
    },
  };
}
