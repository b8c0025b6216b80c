import { createServer } from 'node:net';
import path from 'node:path';
import { freePort, listensOn, serverEntry } from '@oanquan/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config.js';
import { scratchTarget } from '../testing/databases.js';
import { startRedis, type OwnRedis } from '../testing/cluster.js';
import { ClusterStartError, launchCluster, type LaunchOptions } from './launch-cluster.js';

const serverDir = path.join(paths.repoRoot, 'apps/server');

/** Whether a process of that id still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A base port with `count` free ports from it. */
async function freeRange(count: number): Promise<number> {
  for (;;) {
    const base = await freePort();
    let free = true;
    for (let offset = 1; offset < count && free; offset++) free = await listensOn(base + offset);
    if (free) return base;
  }
}

describe('pnpm cluster launcher', () => {
  let database: Awaited<ReturnType<typeof scratchTarget>>;
  let redis: OwnRedis;
  let base: Omit<LaunchOptions, 'port'>;

  beforeAll(async () => {
    database = await scratchTarget('postgresql');
    redis = await startRedis();
    base = {
      nodeArgs: serverEntry(serverDir).args,
      serverDir,
      env: { DATABASE_URL: (database.target as { url: string }).url, REDIS_URL: redis.url, NODE_ENV: 'production', LOG_LEVEL: 'warn', DRAIN_NOTICE_MS: '0', TRUST_PROXY: 'loopback' },
      startTimeoutMs: 90_000,
      checkIntervalMs: 300,
    };
  });
  afterAll(async () => {
    await redis?.stop();
    await database?.drop();
  });

  it('gives each node a metrics port of its own, waits until each is ready, then routes through the proxy', async () => {
    const [port, metricsPort] = [await freeRange(4), await freeRange(3)];
    const cluster = await launchCluster({ ...base, port, metricsPort });
    try {
      expect(cluster.nodes.map((node) => node.metricsPort)).toEqual([metricsPort, metricsPort + 1, metricsPort + 2]);
      for (const node of cluster.nodes) {
        expect(node.readyMs).toBeGreaterThan(0);
        const metrics = await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`);
        expect(metrics.status).toBe(200);
        expect(await metrics.text()).toContain('oanquan_connected_sockets');
        expect(node.child.exitCode).toBeNull();
      }
      expect((await fetch(`${cluster.proxy.url}/api/health`)).status).toBe(200);
    } finally {
      await cluster.stop();
    }
    for (const node of cluster.nodes) expect(alive(node.child.pid!)).toBe(false);
  }, 180_000);

  it('stops every node, and names the one that could not start, when one cannot', async () => {
    const port = await freeRange(4);
    // The third node's metrics port is held by someone else: it fails late in its start, as two of three nodes did when they all got one port.
    const holder = createServer();
    const held = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
    try {
      const launch = launchCluster({ ...base, port, nodeEnv: (index): Record<string, string> => (index === 2 ? { METRICS_PORT: String(held), METRICS_HOST: '127.0.0.1' } : {}) });
      const error = await launch.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ClusterStartError);
      const failure = error as ClusterStartError;
      expect(failure.message).toContain(`node on port ${port + 3} exited`);
      expect(failure.message).toContain('EADDRINUSE');
      expect(failure.pids).toHaveLength(3);
      for (const pid of failure.pids) expect(alive(pid)).toBe(false);
      // No proxy was left behind either.
      expect(await fetch(`http://127.0.0.1:${port}/api/health`).then(() => 'answered', () => 'refused')).toBe('refused');
    } finally {
      holder.close();
    }
  }, 180_000);
});
