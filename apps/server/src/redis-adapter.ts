import { randomUUID } from 'node:crypto';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { createClient } from 'redis';
import type { Server } from 'socket.io';
import { redisNames, type RedisNames } from './redis-names.js';

export interface RedisLink {
  /** Whether broadcasts reach the other processes right now. */
  readonly connected: boolean;
  /** Messages between the processes on a channel of their own (committed match events). */
  readonly channel: ProcessChannel;
  close(): Promise<void>;
}

/** A string to every other process, at most once; nothing while Redis is unreachable. */
export interface ProcessChannel {
  publish(message: string): void;
  onMessage(listener: (message: string) => void): void;
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
export async function attachRedisAdapter(io: Server, url: string, log?: FastifyBaseLogger, names: RedisNames = redisNames()): Promise<RedisLink> {
  // No command timeout: node-redis's default (5 s) arms an AbortSignal.timeout per command, a timer that cannot be
  // cancelled and that fires 5 s later, building a DOMException with its stack while the signal lives: with one
  // PUBLISH per move, a timer, an exception and their garbage per move on every process (about 2-3 % of a
  // process's time under load). Nothing here waits on a reply: a publish is fire and forget, and the stream
  // readers block for 5 s by themselves (a timeout as long only raced their answer).
  const client = newClient(url);
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
  io.adapter(createAdapter(client, names.adapter));
  const channel = await processChannel(client, names.processes, log);
  const adapter = io.of('/').adapter as unknown as { doPublish(message: unknown): Promise<string> };
  const publish = adapter.doPublish.bind(adapter);
  adapter.doPublish = (message) => (client.isReady ? publish(message) : Promise.reject(new Error('Redis is not connected')));
  return {
    get connected() {
      return client.isReady;
    },
    channel,
    async close() {
      await channel.close();
      await closeClient(client);
    },
  };
}

const newClient = (url: string) => createClient({ url, commandOptions: { timeout: 0 } });
type Client = ReturnType<typeof newClient>;

/** A polite close waits for Redis to answer; without Redis, just drop the connection. */
async function closeClient(client: Client): Promise<void> {
  if (client.isReady) await client.close();
  else if (client.isOpen) client.destroy();
}

/**
 * Plain pub/sub beside the adapter: the adapter's server-side emit encodes
 * every message with msgpack, and every process decodes every message, its
 * own included, before it finds that it sent it (two processes at 300 games:
 * 1.74 ms of CPU per move through the adapter, 1.52 this way). Here a message is
 * this process's id and then the text: its own are dropped on the id, read
 * from the bytes, and the others' text is the caller's to parse. The
 * subscriber is a connection of its own (a subscribed connection takes no
 * other commands) and subscribes again after a reconnection by itself.
 */
async function processChannel(client: Client, name: string, log?: FastifyBaseLogger): Promise<ProcessChannel & { close(): Promise<void> }> {
  const prefix = `${randomUUID()}|`;
  const id = Buffer.from(prefix);
  const subscriber = client.duplicate();
  let listener: (message: string) => void = () => {};
  // The main client's listener reports an outage; this one only keeps an 'error' from crashing the process.
  subscriber.on('error', () => {});
  await subscriber.connect();
  await subscriber.subscribe(
    name,
    (message: Buffer) => {
      if (message.length > id.length && message.compare(id, 0, id.length, 0, id.length) === 0) return;
      try {
        listener(message.toString('utf8', message.indexOf(0x7c) + 1));
      } catch (error) {
        // Thrown here it would reach the Redis client's socket; a message that cannot be read is dropped (the feed's check repairs).
        log?.warn({ err: error }, 'a message between processes could not be read');
      }
    },
    true,
  );
  return {
    publish(message) {
      // Fire and forget: what a process misses, its feed's check reads from the database.
      if (client.isReady) client.publish(name, prefix + message).catch(() => {});
    },
    onMessage(next) {
      listener = next;
    },
    close: () => closeClient(subscriber),
  };
}
