import { spawn, type ChildProcess } from 'node:child_process';
import { startHaproxy, type ProxyProcess } from './haproxy.js';

export interface LaunchOptions {
  /** The proxy's port; node `i` listens on `port + 1 + i`. */
  port: number;
  /** Node's arguments for a node (options, then the entry file), run in `serverDir`. */
  nodeArgs: string[];
  serverDir: string;
  /** Settings of every node. */
  env: Record<string, string>;
  /** Node `i` serves its metrics on `metricsPort + i` (0: each on a spare port of its own); unset, none. */
  metricsPort?: number;
  /** Settings of node `i` only, on top of `env`. */
  nodeEnv?: (index: number) => Record<string, string>;
  /** How long a node may take to answer its readiness check before the launch is given up. */
  startTimeoutMs: number;
  checkIntervalMs: number;
  /** Where each node's output goes besides the launcher's memory of its last lines. */
  echo?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
}

export interface ClusterNode {
  port: number;
  metricsPort?: number;
  child: ChildProcess;
  exited: Promise<number | string>;
  /** Milliseconds from its spawn to its first ready answer. */
  readyMs: number;
  /** Its last output (a few kilobytes), to tell why it stopped. */
  output(): string;
}

export interface RunningCluster {
  nodes: ClusterNode[];
  proxy: ProxyProcess;
  /** Starts node `index` again on its port (after it died or drained), waited on until ready; it replaces the old one in `nodes`. */
  restart(index: number): Promise<ClusterNode>;
  /** Drains every node (SIGTERM), then stops the proxy. */
  stop(): Promise<void>;
}

const NODE_COUNT = 3;
const OUTPUT_KEPT = 8_000;

/** Why a launch gave up; by then every process it started (`pids`) is gone. */
export class ClusterStartError extends Error {
  constructor(
    message: string,
    readonly pids: number[] = [],
  ) {
    super(message);
  }
}

/** The metrics port of node `index`: one each, never shared (0 stays 0: the system gives each its own). */
export function metricsPortOf(base: number, index: number): number {
  return base === 0 ? 0 : base + index;
}

/**
 * Three nodes, each waited on until it answers readiness (not for a fixed
 * time), then HAProxy in front of them. A node that exits or does not answer
 * in time stops the whole launch: the other nodes are stopped and the error
 * names the node with its last output, so no half-started cluster stays
 * behind looking as if it worked.
 */
export async function launchCluster(options: LaunchOptions): Promise<RunningCluster> {
  const ports = Array.from({ length: NODE_COUNT }, (_, index) => options.port + 1 + index);
  const metricsPorts = ports.map((_, index) => (options.metricsPort === undefined ? undefined : metricsPortOf(options.metricsPort, index)));
  const taken = metricsPorts.filter((port) => port !== undefined && port !== 0 && (port === options.port || ports.includes(port)));
  if (taken.length > 0) throw new ClusterStartError(`METRICS_PORT ${options.metricsPort} would share a port with the proxy or a node (${options.port}–${options.port + NODE_COUNT}): choose another`);
  const started = ports.map((port, index) => spawnNode(options, port, metricsPorts[index], index));
  try {
    const nodes = await Promise.all(started.map((node) => node.ready));
    const fallen = nodes.find((node) => node.child.exitCode !== null || node.child.signalCode !== null);
    if (fallen) throw new ClusterStartError(`node on port ${fallen.port} exited while the others started; every node was stopped. Its last output:\n${fallen.output().trim()}`);
    const proxy = await startHaproxy({ port: options.port, nodes: nodes.map((node) => `127.0.0.1:${node.port}`) as [string, string, string], checkIntervalMs: options.checkIntervalMs });
    return {
      nodes,
      proxy,
      async restart(index) {
        const old = nodes[index]!;
        await stopProcess(old.child, old.exited, 'SIGTERM');
        const node = await spawnNode(options, old.port, old.metricsPort, index).ready;
        nodes[index] = node;
        return node;
      },
      async stop() {
        await Promise.all(nodes.map((node) => stopProcess(node.child, node.exited, 'SIGTERM')));
        await proxy.stop();
      },
    };
  } catch (error) {
    // Nothing half-started outlives the launch; SIGINT closes at once (no player is there to drain).
    await Promise.all(started.map((node) => stopProcess(node.child, node.exited, 'SIGINT')));
    const message = error instanceof ClusterStartError ? error.message : `the cluster did not start: ${String(error)}`;
    throw new ClusterStartError(message, started.flatMap((node) => (node.child.pid === undefined ? [] : [node.child.pid])));
  }
}

function spawnNode(options: LaunchOptions, port: number, metricsPort: number | undefined, index: number) {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, options.nodeArgs, {
    cwd: options.serverDir,
    env: {
      ...process.env,
      ...options.env,
      ...options.nodeEnv?.(index),
      HOST: '127.0.0.1',
      PORT: String(port),
      ...(metricsPort === undefined ? {} : { METRICS_PORT: String(metricsPort) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
    options.echo?.(chunk, stream);
  };
  child.stdout?.on('data', keep('stdout'));
  child.stderr?.on('data', keep('stderr'));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  child.once('error', (error) => (output += `\n${String(error)}`));
  const failure = (why: string) => new ClusterStartError(`node on port ${port} ${why}; every node was stopped. Its last output:\n${output.trim() || '(none)'}`);
  const ready = (async (): Promise<ClusterNode> => {
    let gone: number | string | undefined;
    void exited.then((code) => (gone = code));
    const deadline = spawnedAt + options.startTimeoutMs;
    while (performance.now() < deadline) {
      if (gone !== undefined) throw failure(`exited (${gone}) before it was ready`);
      if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) {
        return { port, metricsPort, child, exited, readyMs: Math.round(performance.now() - spawnedAt), output: () => output };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw failure(`did not answer its readiness check within ${options.startTimeoutMs} ms`);
  })();
  return { child, exited, ready };
}

async function stopProcess(child: ChildProcess, exited: Promise<unknown>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited;
}
