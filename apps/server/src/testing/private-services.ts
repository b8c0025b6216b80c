import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@oanquan/testkit';
import { createClient } from 'redis';

const run = promisify(execFile);
const postgresBin = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL cluster of the test's own on a spare port, which the test may
 * stop and start again without disturbing any other test.
 */
export async function privatePostgres(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root (CI containers), run it as the postgres user of Debian's package.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())));
    await chown(dir, ids[0]!, ids[1]!);
  }
  const bin = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(postgresBin, name), ...args], { env: { ...process.env, LC_ALL: 'C' } }) : run(path.join(postgresBin, name), args, { env: { ...process.env, LC_ALL: 'C' } });
  await bin('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const pgctl = (...args: string[]) => bin('pg_ctl', ['-D', data, '-w', ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = async () => {
    await pgctl('-o', options, '-l', path.join(dir, 'log'), 'start');
  };
  await start();
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE DATABASE oanquan');
  await client.end();
  let running = true;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/oanquan`,
    async stop() {
      // Fast shutdown: every session is told 57P01 and cut, as when an operator restarts the server.
      await pgctl('-m', 'fast', 'stop');
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await pgctl('-m', 'immediate', 'stop').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis of the test's own on a spare port, in memory only; `stop` kills it, `start` brings up an empty one on the same port. */
export async function privateRedis(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = createClient({ url, socket: { reconnectStrategy: false } });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.ping();
        await probe.quit();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  await start();
  return {
    url,
    async stop() {
      const exiting = child;
      if (!exiting || exiting.exitCode !== null) return;
      const exited = new Promise((resolve) => exiting.once('exit', resolve));
      exiting.kill('SIGKILL');
      await exited;
    },
    start,
  };
}
