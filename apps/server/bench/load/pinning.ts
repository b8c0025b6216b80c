import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Pinned runs (`--pin`): the load generator (this process, its players and
 * its threads) on one core, what it measures (the floor relay, the server
 * processes) on another, so that neither's CPU is taken from the other and
 * an ack's latency is the server's, not the generator's event loop. Every
 * thread of a process is pinned (`taskset -a`), and the threads it starts
 * later inherit it. PostgreSQL is left where the system runs it: it is the
 * machine's shared server, and pinning it would move it for everyone.
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
    ? `pinned: load generator on core ${pinning.generatorCore}, measured processes on core ${pinning.serverCore}, PostgreSQL unpinned (the system's, shared)`
    : 'unpinned';
}
