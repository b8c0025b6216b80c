import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.js';

const run = promisify(execFile);
const postgresBin = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  /** A database `oanquan` on the private server. */
  url: string;
  /** The postmaster's process id, read from the data directory: every server process is it or its child. */
  postmasterPid(): Promise<number>;
  /** Fast shutdown: every session is told 57P01 and cut, as when an operator restarts the server. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own (initdb and pg_ctl of the installed
 * server) on a spare port, which the test may stop and start again without
 * disturbing any other test. `maxConnections` is small by default, to keep
 * tests light; three nodes whose pools all fill at once need PostgreSQL's own
 * default (100). Commits skip the flush to disk unless `durable` (a
 * benchmark that compares with the machine's own server wants its flushes).
 */
export async function privatePostgres(settings: { maxConnections?: number; durable?: boolean } = {}): Promise<PrivatePostgres> {
  const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: as root (CI containers), run it as the postgres user of Debian's package.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())));
    await chown(dir, ids[0]!, ids[1]!);
  }
  const env = { ...process.env, LC_ALL: 'C' };
  const bin = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(postgresBin, name), ...args], { env }) : run(path.join(postgresBin, name), args, { env });
  await bin('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const pgctl = (...args: string[]) => bin('pg_ctl', ['-D', data, '-w', ...args]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${settings.durable ? 'on' : 'off'} -c max_connections=${settings.maxConnections ?? 60}`;
  const start = async () => {
    await pgctl('-o', options, '-l', path.join(dir, 'log'), 'start');
  };
  await start();
  await bin('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'oanquan']);
  let running = true;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/oanquan`,
    postmasterPid: async () => Number((await readFile(path.join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]),
    async stop() {
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

/** Whether something answers PONG to a Redis PING on this port. */
/**
 * The process id of the Redis answering on `port`, or null if none answers.
 * A port found free can be taken by another test's Redis before ours binds
 * it (ours then exits); answering PING, that one would pass for ours, and two
 * test files would share their keys.
 */
function redisPid(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (pid: number | null) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(1000, () => done(null));
    socket.once('error', () => done(null));
    socket.once('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      const pid = /process_id:(\d+)/.exec(answer);
      if (pid) done(Number(pid[1]));
      else if (answer.startsWith('-')) done(null);
    });
  });
}

/** A Redis of the test's own on a spare port, in memory only; `stop` kills it, `start` brings up an empty one on the same port. */
export async function privateRedis(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  let port = await freePort();
  let child: ChildProcess | undefined;
  /** Ready once the Redis answering on the port is this child; false if the child exited first (the port was taken). */
  const startOn = async (): Promise<boolean> => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = started;
    const deadline = Date.now() + 10_000;
    while ((await redisPid(port)) !== started.pid) {
      if (started.exitCode !== null || started.signalCode !== null) return false;
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  };
  while (!(await startOn())) port = await freePort();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const exiting = child;
      if (!exiting || exiting.exitCode !== null) return;
      const exited = new Promise((resolve) => exiting.once('exit', resolve));
      exiting.kill('SIGKILL');
      await exited;
    },
    // On the same port, which the clients know: taken meanwhile, it cannot be had back.
    async start() {
      if (!(await startOn())) throw new Error(`redis-server could not listen on ${port} again: another process took the port`);
    },
  };
}
