import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { paths } from '../config.js';

/** The one HAProxy configuration, shared with docker-compose.yml. */
export const haproxyConfigFile = path.join(paths.repoRoot, 'deploy/haproxy.cfg');
const haproxyBinary = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

export interface ProxyProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | string>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * HAProxy as a plain process in the foreground (never a system service) in
 * front of three nodes given as `host:port`; resolves once it routes
 * /api/health to a ready node.
 */
export async function startHaproxy(options: { port: number; nodes: [string, string, string]; checkIntervalMs: number }): Promise<ProxyProcess> {
  const [NODE1, NODE2, NODE3] = options.nodes;
  const child = spawn(haproxyBinary, ['-f', haproxyConfigFile, '-db'], {
    env: { ...process.env, PROXY_BIND: `127.0.0.1:${options.port}`, NODE1, NODE2, NODE3, CHECK_INTER: `${options.checkIntervalMs}ms` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  child.once('error', (error) => (output += String(error)));
  const url = `http://127.0.0.1:${options.port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 30_000;
  while (!gone && Date.now() < deadline) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) {
      return {
        url,
        child,
        exited,
        output: () => output,
        async stop() {
          if (!gone) child.kill('SIGTERM');
          await exited;
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`HAProxy did not come up:\n${output}`);
}
