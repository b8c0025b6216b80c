import { readFileSync } from 'node:fs';
import path from 'node:path';
import { paths } from '../config.js';
import { ClusterStartError, launchCluster } from './launch-cluster.js';

/**
 * `pnpm cluster`: the docker-compose topology as local processes, from the
 * build (dist/, as `npm start` and the Docker image run it). Three nodes
 * (PORT+1..PORT+3 on loopback) behind HAProxy on PORT, sharing DATABASE_URL
 * (PostgreSQL, required: the embedded database is one process's) and
 * REDIS_URL; with METRICS_PORT, node i serves its metrics on METRICS_PORT+i.
 * Each node is waited on until it is ready; one that cannot start stops
 * them all. Ctrl-C drains the nodes and stops the proxy; `kill -TERM <pid>`
 * of one node drains just that one.
 */
const port = Number(process.env.PORT ?? 8080);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl?.startsWith('postgres')) {
  console.error('pnpm cluster needs DATABASE_URL=postgresql://… (several processes share one PostgreSQL)');
  process.exit(1);
}
const serverDir = path.join(paths.repoRoot, 'apps/server');
// The heap's sizes, as every way of starting the server gives them (see heap-sizing.ts).
const nodeArgs = JSON.parse(readFileSync(path.join(serverDir, 'node-args.json'), 'utf8')) as string[];
const metricsPort = process.env.METRICS_PORT === undefined || process.env.METRICS_PORT === '' ? undefined : Number(process.env.METRICS_PORT);

let stopping = false;
let cluster;
try {
  cluster = await launchCluster({
    port,
    nodeArgs: [...nodeArgs, 'dist/main.js'],
    serverDir,
    env: {
      NODE_ENV: 'production',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ...(process.env as Record<string, string>),
      DATABASE_URL: databaseUrl,
      TRUST_PROXY: 'loopback',
    },
    metricsPort,
    startTimeoutMs: Number(process.env.CLUSTER_START_TIMEOUT_MS ?? 60_000),
    checkIntervalMs: 1000,
    echo: (chunk, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
  });
} catch (error) {
  console.error(`\npnpm cluster FAILED: ${error instanceof ClusterStartError ? error.message : String(error)}`);
  process.exit(1);
}
for (const node of cluster.nodes) {
  const metrics = node.metricsPort === undefined ? '' : `, metrics on ${node.metricsPort}`;
  console.log(`node on port ${node.port}: pid ${node.child.pid}, ready ${node.readyMs} ms after start${metrics}`);
  // After the start a node may die (a crash, kill -9): the proxy sends its players to the others, so the cluster stays up, and says so.
  void node.exited.then((code) => {
    if (!stopping) console.error(`node on port ${node.port} (pid ${node.child.pid}) exited (${code}); the other nodes carry its players`);
  });
}
console.log(`Open http://localhost:${port}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  });
}
