import { spawn } from 'node:child_process';
import { freePort, startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { createClient } from 'redis';
import { startHaproxy, type ProxyProcess } from '../cluster/haproxy.js';
import { postgresTemplate, scratchTarget } from './databases.js';
import { waitFor } from './wait-for.js';

/** The shared Redis `bench:load` runs its processes on; a test runs one of its own (startRedis). */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface OwnRedis {
  url: string;
  /** Runs one command on it (`CLIENT PAUSE 3000 WRITE`, …). */
  command(...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * A Redis of the test's own on a spare port, so pausing or stopping it, or
 * the counters and broadcasts of its nodes, disturb no other test running
 * at the same time.
 */
export async function startRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `redis://127.0.0.1:${port}`;
  const client = createClient({ url, socket: { reconnectStrategy: 100 } });
  client.on('error', () => {});
  await waitFor(`redis-server to accept a connection on port ${port}`, () => client.connect().then(() => true));
  return {
    url,
    command: (...args) => client.sendCommand(args),
    async stop() {
      await client.quit().catch(() => {});
      child.kill('SIGKILL');
      await exited;
    },
  };
}

interface Cluster<Servers extends ServerProcess[]> {
  servers: Servers;
  databaseUrl: string;
  stop(): Promise<void>;
}

/** Where the nodes' data lives when not in a throw-away database of the shared PostgreSQL, and what one node is told apart from the others. */
export interface NodeOptions {
  /** A PostgreSQL of the test's own (which it may stop); the nodes migrate it at start. */
  databaseUrl?: string;
  /** Settings of the node at `index` only (its own route to the database, …). */
  nodeEnv?: (index: number) => Record<string, string>;
}

/** Nodes on the database and Redis `env` names, or else on a throw-away database of the shared PostgreSQL and a Redis of their own, which stopping them removes. */
async function startNodes(count: number, env: Record<string, string>, options: NodeOptions = {}): Promise<Cluster<ServerProcess[]>> {
  const redis = env.REDIS_URL === undefined ? await startRedis() : undefined;
  const scratch = options.databaseUrl === undefined ? await scratchTarget('postgresql', postgresTemplate) : undefined;
  if (scratch && scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
  const databaseUrl = options.databaseUrl ?? (scratch?.target as { url: string }).url;
  const settings = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', DRAIN_NOTICE_MS: '0', ...(redis && { REDIS_URL: redis.url }), ...env };
  const dropOwn = async () => {
    await scratch?.drop();
    await redis?.stop();
  };
  const servers = await Promise.all(Array.from({ length: count }, (_, index) => startServerProcess({ ...settings, ...options.nodeEnv?.(index) }))).catch(
    async (error: unknown) => {
      await dropOwn();
      throw error;
    },
  );
  return {
    servers,
    databaseUrl,
    async stop() {
      for (const server of servers) {
        // A node a test killed is already gone.
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
        await server.exited;
      }
      await dropOwn();
    },
  };
}

/**
 * Two real server processes sharing one throw-away PostgreSQL database and
 * a Redis (their own unless `env` names one), as behind a load balancer.
 * Both migrate at start-up, at the same time, under the advisory lock.
 */
export async function startCluster(env: Record<string, string> = {}, options: NodeOptions = {}): Promise<Cluster<[ServerProcess, ServerProcess]>> {
  return (await startNodes(2, env, options)) as Cluster<[ServerProcess, ServerProcess]>;
}

/** Which node answered a request through the proxy: HAProxy names it in the cookie it sets (deploy/haproxy.cfg). */
export async function answeredBy(proxyUrl: string): Promise<{ status: number; node: string | undefined }> {
  const response = await fetch(`${proxyUrl}/api/health`);
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('node='));
  return { status: response.status, node: cookie?.slice('node='.length).split(';')[0] };
}

/** Waits until requests through the proxy have reached every one of `nodes` (HAProxy's names); answers how long that took. */
export function untilAllAnswer(proxyUrl: string, nodes: string[], what = `${nodes.join(', ')} to answer through the proxy`): Promise<number> {
  const seen = new Set<string | undefined>();
  return waitFor(what, async () => (seen.add((await answeredBy(proxyUrl)).node), nodes.every((node) => seen.has(node))));
}

/**
 * The production topology as local processes: three nodes behind a real
 * HAProxy (deploy/haproxy.cfg, health checks every `checkIntervalMs`),
 * sharing a throw-away PostgreSQL database and a Redis of their own, unless
 * the test brings its own (`databaseUrl`, `redisUrl`: then stopping them is
 * the test's business).
 */
export async function startProxiedCluster(
  env: Record<string, string> = {},
  checkIntervalMs = 300,
  options: NodeOptions & { redisUrl?: string } = {},
): Promise<Cluster<[ServerProcess, ServerProcess, ServerProcess]> & { proxy: ProxyProcess }> {
  // Behind the proxy every client comes from its address: the caps per address are the client's.
  const nodes = await startNodes(3, { ...(options.redisUrl && { REDIS_URL: options.redisUrl }), TRUST_PROXY: 'loopback', ...env }, options);
  const addresses = nodes.servers.map((server) => new URL(server.url).host) as [string, string, string];
  const proxy = await startHaproxy({ port: await freePort(), nodes: addresses, checkIntervalMs }).catch(async (error: unknown) => {
    // Nobody else would stop them: the caller never gets the cluster.
    await nodes.stop();
    throw error;
  });
  const cluster = {
    ...(nodes as Cluster<[ServerProcess, ServerProcess, ServerProcess]>),
    proxy,
    async stop() {
      await proxy.stop();
      await nodes.stop();
    },
  };
  // Every node in rotation before the clients arrive, so they spread over all three.
  await untilAllAnswer(proxy.url, ['node1', 'node2', 'node3']).catch(async (error: unknown) => {
    await cluster.stop();
    throw error;
  });
  return cluster;
}
