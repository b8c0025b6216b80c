/**
 * How soon a server process answers its readiness check (GET /api/health
 * 200), on each database: a fresh one (migrations applied at start) and a
 * restart on the same data, ROUNDS times each. Prints, per case, the wall
 * time from spawn to the first ready answer, the CPU the process had used by
 * then (stable when the machine is shared), and its RSS then.
 * Runs the build when it is fresh (see serverEntry), as production does.
 *
 *   pnpm --filter @oanquan/server bench:startup
 *   ROUNDS=5 STARTUP_REDIS=1 pnpm --filter @oanquan/server bench:startup   (with Redis, as a cluster node)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, serverEntry } from '@oanquan/testkit';
import { scratchTarget } from '../src/testing/databases.js';
import { cpuTimes, rssBytes } from './load/process-stats.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const redis = process.env.STARTUP_REDIS ? { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' } : {};
const entry = serverEntry(serverDir);

interface Start {
  readyMs: number;
  cpuMs: number;
  rssMb: number;
}

async function startOnce(env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, entry.args, {
    cwd: serverDir,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...redis, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
      if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) {
        return { readyMs: performance.now() - spawnedAt, cpuMs: cpuMsOf(child.pid!), rssMb: rssBytes(child.pid!) / 2 ** 20 };
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function report(name: string, starts: Start[]) {
  const list = (pick: (start: Start) => number) => starts.map((start) => pick(start).toFixed(0)).join(', ');
  console.log(
    `${name.padEnd(24)} ready ${median(starts.map((s) => s.readyMs)).toFixed(0).padStart(5)} ms (${list((s) => s.readyMs)})` +
      `   CPU ${median(starts.map((s) => s.cpuMs)).toFixed(0).padStart(5)} ms (${list((s) => s.cpuMs)})   RSS ${median(starts.map((s) => s.rssMb)).toFixed(0)} MB`,
  );
}

console.log(`server from its ${entry.kind}, ${ROUNDS} rounds${redis.REDIS_URL ? ', with Redis' : ''}; median (each)`);
const cases: Array<[string, () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>]> = [
  ['postgresql', async () => {
    const scratch = await scratchTarget('postgresql');
    return { env: { DATABASE_URL: (scratch.target as { url: string }).url }, drop: scratch.drop };
  }],
  ['pglite', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-startup-'));
    return { env: { PGLITE_DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }],
];
for (const [name, open] of cases) {
  const fresh: Start[] = [];
  const restart: Start[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const data = await open();
    try {
      fresh.push(await startOnce(data.env));
      restart.push(await startOnce(data.env));
    } finally {
      await data.drop();
    }
  }
  report(`${name}, fresh database`, fresh);
  report(`${name}, restart`, restart);
}

function cpuMsOf(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return (user + system) * 1000;
}
