import { spawn } from 'node:child_process';
import { freePort, startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { createClient } from 'redis';
import { startHaproxy, type ProxyProcess } from '../cluster/haproxy.js';
import { scratchTarget } from './databases.js';

export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface OwnRedis {
  url: string;
  /** Runs one command on it (`CLIENT PAUSE 3000 WRITE`, …). */
  command(...args: string[]): Promise<unknown>;
  stop(): Promise<void>;
}

/** A Redis of the test's own on a spare port, so pausing or stopping it disturbs no other test. */
export async function startRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `redis://127.0.0.1:${port}`;
  const client = createClient({ url, socket: { reconnectStrategy: 100 } });
  client.on('error', () => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await client.connect();
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
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

async function startNodes(count: number, env: Record<string, string>, options: NodeOptions = {}): Promise<Cluster<ServerProcess[]>> {
  const scratch = options.databaseUrl === undefined ? await scratchTarget('postgresql') : undefined;
  if (scratch && scratch.target.kind !== 'postgresql') throw new Error('expected PostgreSQL');
  const databaseUrl = options.databaseUrl ?? (scratch?.target as { url: string }).url;
  const settings = { DATABASE_URL: databaseUrl, REDIS_URL: testRedisUrl, LOG_LEVEL: 'warn', DRAIN_NOTICE_MS: '0', ...env };
  const servers = await Promise.all(Array.from({ length: count }, (_, index) => startServerProcess({ ...settings, ...options.nodeEnv?.(index) })));
  return {
    servers,
    databaseUrl,
    async stop() {
      for (const server of servers) {
        // A node a test killed is already gone.
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
        await server.exited;
      }
      await scratch?.drop();
    },
  };
}

/**
 * Two real server processes sharing one throw-away PostgreSQL database and
 * Redis, as behind a load balancer. Both migrate at start-up, at the same
 * time, under the advisory lock.
 */
export async function startCluster(env: Record<string, string> = {}): Promise<Cluster<[ServerProcess, ServerProcess]>> {
  return (await startNodes(2, env)) as Cluster<[ServerProcess, ServerProcess]>;
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
  const redis = options.redisUrl === undefined ? await startRedis() : undefined;
  // Behind the proxy every client comes from its address: the caps per address are the client's.
  const nodes = await startNodes(3, { REDIS_URL: options.redisUrl ?? redis!.url, TRUST_PROXY: 'loopback', ...env }, options).catch(async (error: unknown) => {
    await redis?.stop();
    throw error;
  });
  const addresses = nodes.servers.map((server) => new URL(server.url).host) as [string, string, string];
  const proxy = await startHaproxy({ port: await freePort(), nodes: addresses, checkIntervalMs }).catch(async (error: unknown) => {
    // Nobody else would stop them: the caller never gets the cluster.
    await nodes.stop();
    await redis?.stop();
    throw error;
  });
  // Every node marked up (rise 2) before the clients arrive, so they spread over all three.
  await new Promise((resolve) => setTimeout(resolve, 3 * checkIntervalMs));
  return {
    ...(nodes as Cluster<[ServerProcess, ServerProcess, ServerProcess]>),
    proxy,
    async stop() {
      await proxy.stop();
      await nodes.stop();
      await redis?.stop();
    },
  };
}
