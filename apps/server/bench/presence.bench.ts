/**
 * What one presence refresh costs with several processes, the old way and
 * the new: asking every process for the sockets of a room (fetchSockets
 * through the Redis streams adapter) against writing this process's entry
 * and reading the room's entries (the presence store). Three Socket.IO
 * servers in this process share a Redis of the bench's own; a room holds
 * SPECTATORS sockets spread over them. Prints percentiles.
 *
 *   pnpm --filter @oanquan/server exec tsx bench/presence.bench.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import pino from 'pino';
import { RedisPresenceStore } from '../src/presence/presence-store.js';
import { privateRedis } from '@oanquan/testkit';
import { formatPercentiles, percentiles } from './load/stats.js';

const NODES = 3;
const SPECTATORS = Number(process.env.SPECTATORS ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 300);

const redis = await privateRedis();
const clients: Array<{ isOpen: boolean; destroy(): void }> = [];
const servers: Server[] = [];
const urls: string[] = [];
for (let n = 0; n < NODES; n++) {
  const client = createClient({ url: redis.url });
  await client.connect();
  clients.push(client);
  const http = createServer();
  const io = new Server(http, { adapter: createAdapter(client) });
  io.on('connection', (socket) => {
    socket.data.player = { id: `p${socket.handshake.auth.n}` };
    void socket.join('room:bench');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  servers.push(io);
  urls.push(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
}
const sockets: Socket[] = [];
for (let i = 0; i < SPECTATORS; i++) {
  const socket = connect(urls[i % NODES]!, { transports: ['websocket'], auth: { n: i }, forceNew: true });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  sockets.push(socket);
}
await new Promise((resolve) => setTimeout(resolve, 500));

const fetchTimes: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const found = await servers[0]!.in('room:bench').fetchSockets();
  fetchTimes.push(performance.now() - t0);
  if (found.length !== SPECTATORS) throw new Error(`fetchSockets found ${found.length}`);
}

const log = pino({ level: 'silent' });
const stores = servers.map(() => new RedisPresenceStore(redis.url, 15_000, log));
for (const store of stores) await store.connect();
const localIds = (io: Server) => [...(io.of('/').adapter.rooms.get('room:bench') ?? [])].map((id) => io.of('/').sockets.get(id)!.data.player.id as string);
for (const [n, store] of stores.entries()) await store.exchange('bench', localIds(servers[n]!));
const storeTimes: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const entries = await stores[0]!.exchange('bench', localIds(servers[0]!));
  storeTimes.push(performance.now() - t0);
  if (new Set(entries.flat()).size !== SPECTATORS) throw new Error('store lost players');
}

console.log(`${NODES} processes, one room of ${SPECTATORS} sockets, ${ROUNDS} refreshes each`);
console.log(`  fetchSockets across the cluster: ${formatPercentiles(percentiles(fetchTimes))}`);
console.log(`  presence store exchange:         ${formatPercentiles(percentiles(storeTimes))}`);

for (const socket of sockets) socket.close();
for (const store of stores) await store.close();
for (const io of servers) await new Promise((resolve) => io.close(resolve));
for (const client of clients) if (client.isOpen) client.destroy();
await redis.stop();
process.exit(0);
