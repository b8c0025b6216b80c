import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { paths } from '../config.js';
import { startHaproxy } from './haproxy.js';

/**
 * `pnpm cluster`: the docker-compose topology as local processes. Three
 * nodes (PORT+1..PORT+3 on loopback) behind HAProxy on PORT, sharing
 * DATABASE_URL (PostgreSQL, required: the embedded database is one
 * process's) and REDIS_URL. Ctrl-C drains the nodes and stops the proxy;
 * `kill -TERM <pid>` of one node drains just that one.
 */
const port = Number(process.env.PORT ?? 8080);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl?.startsWith('postgres')) {
  console.error('pnpm cluster needs DATABASE_URL=postgresql://… (several processes share one PostgreSQL)');
  process.exit(1);
}
const nodePorts = [port + 1, port + 2, port + 3] as const;
const serverDir = path.join(paths.repoRoot, 'apps/server');
// The heap's sizes, as every way of starting the server gives them (see heap-sizing.ts).
const nodeArgs = JSON.parse(readFileSync(path.join(serverDir, 'node-args.json'), 'utf8')) as string[];
const nodes: ChildProcess[] = nodePorts.map((nodePort) => {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      NODE_ENV: 'production',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(nodePort),
      TRUST_PROXY: 'loopback',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  console.log(`node on port ${nodePort}: pid ${child.pid}`);
  return child;
});

const proxy = await startHaproxy({
  port,
  nodes: nodePorts.map((nodePort) => `127.0.0.1:${nodePort}`) as [string, string, string],
  checkIntervalMs: 1000,
});
console.log(`Open http://localhost:${port}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    const exits = nodes.map((node) => new Promise((resolve) => (node.exitCode !== null ? resolve(null) : node.once('exit', resolve))));
    for (const node of nodes) node.kill('SIGTERM');
    void Promise.all(exits)
      .then(() => proxy.stop())
      .then(() => process.exit(0));
  });
}
