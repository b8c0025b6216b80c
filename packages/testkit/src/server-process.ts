import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEntry, type ServerEntry } from './server-entry.js';
import { testRateLimits } from './test-limits.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A free TCP port on loopback, so parallel test files never collide. Chosen at
 * random below the range the kernel takes outgoing connections' ports from
 * (32768–60999 on Linux): a port the kernel handed out as free (listen on 0)
 * could be taken by any process's outgoing connection before the server that
 * was given it listens (seen: a cluster node's EADDRINUSE while the browser
 * tests ran beside it).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await listensOn(port)) return port;
  }
}

/** Whether a server can listen on `port` of loopback now (it is closed again at once). */
export function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Whether it runs the build or the sources (see serverEntry). */
  entry: ServerEntry['kind'];
  output(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
}

/**
 * Starts the real server entry point as its own process, as `pnpm start`
 * does (from the build when it is fresh, see serverEntry), and waits until
 * /api/health answers.
 */
export async function startServerProcess(env: Record<string, string>, options: { port?: number; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const serverDir = path.join(repoRoot, 'apps/server');
  const entry = serverEntry(serverDir);
  // Node itself (not the tsx wrapper, for the sources), so that a signal
  // sent to the child reaches the server and nothing else.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry.args], {
    cwd: serverDir,
    // No first puzzles from self-play unless a test asks: they would load the machine under every other test.
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), PUZZLES_AT_START: '0', ...testRateLimits, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  // Generous: on a busy machine a fresh database's migrations alone take tens of seconds.
  const ceilingMs = 180_000;
  const deadline = Date.now() + ceilingMs;
  let gone = false;
  let lastAnswer = 'no answer yet';
  void exited.then(() => (gone = true));
  while (Date.now() < deadline && !gone) {
    const answered = await fetch(`${url}/api/health`).then(
      (r) => ((lastAnswer = `HTTP ${r.status}`), r.ok),
      (error: Error) => ((lastAnswer = error.cause instanceof Error ? error.cause.message : error.message), false),
    );
    if (answered) return { url, child, entry: entry.kind, output: () => output, exited };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  const why = gone ? 'it exited first' : `gave up after ${ceilingMs} ms`;
  throw new Error(`waited for the server to answer ${url}/api/health with 200: ${why} (last answer: ${lastAnswer}); its output:\n${output}`);
}
