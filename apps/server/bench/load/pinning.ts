import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { privatePostgres } from '@oanquan/testkit';
import { processAndChildren } from './process-stats.js';

/**
 * Pinned runs (`--pin`): the load generator (this process, its players and
 * its threads) on one core, what it measures (the floor relay, the server
 * processes) on another, so that neither's CPU is taken from the other and
 * an ack's latency is the server's, not the generator's event loop. Every
 * thread of a process is pinned (`taskset -a`), and the threads it starts
 * later inherit it. PostgreSQL shares the measured processes' core, as a
 * server shares a machine with its database: a cluster of the run's own
 * (see `pinnedPostgres`), since the machine's is shared and pinning it would
 * move it for everyone.
 */
export interface Pinning {
  generatorCore: number;
  serverCore: number;
}

export function pinningFor(enabled: boolean): Pinning | null {
  if (!enabled) return null;
  if (availableParallelism() < 2) throw new Error('--pin needs two cores');
  return { generatorCore: 1, serverCore: 0 };
}

/** Pins every thread of `pid` to `core`. */
export function pin(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}

export function describePinning(pinning: Pinning | null): string {
  return pinning
    ? `pinned: load generator on core ${pinning.generatorCore}, measured processes and a PostgreSQL of the run's own on core ${pinning.serverCore}`
    : 'unpinned';
}

/** A PostgreSQL server the run owns: a fresh database on it per run, and the processes whose CPU is the database's. */
export interface OwnPostgres {
  database(): Promise<{ url: string; drop(): Promise<void> }>;
  pids(): number[];
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the run's own (initdb of the installed server on a
 * spare port), durable like the machine's (fsync on: a commit waits for its
 * flush), every process of it on `core`; the backends it forks later inherit
 * that.
 */
export async function pinnedPostgres(core: number): Promise<OwnPostgres> {
  const server = await privatePostgres({ durable: true, maxConnections: 100 });
  const postmaster = await server.postmasterPid();
  for (const pid of processAndChildren(postmaster)) pin(pid, core);
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  return {
    async database() {
      const name = `load_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(server.url);
      url.pathname = `/${name}`;
      return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
    },
    pids: () => processAndChildren(postmaster),
    destroy: () => server.destroy(),
  };
}
