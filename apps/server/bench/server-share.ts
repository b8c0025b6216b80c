// What the server itself spends, told apart from what the bench's clients
// spend on the same machine: the server is pinned to one core and the bench
// (every simulated person, attacker and victim alike) to the other, and the
// server's CPU is read from /proc, by thread, so a phase can be summed up as
// CPU per move beside the event loop's delay. On a shared machine the
// absolute figures move with the neighbours; the ratios between two phases of
// one run are what to compare.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { metricSample } from '../src/testing/metric-sample.js';

const ticksPerSecond = 100; // USER_HZ on Linux

/**
 * Pins `pid` (every thread it has; threads it starts later inherit) to
 * `core`; false when it cannot be done here (no taskset, one core).
 */
export function pin(pid: number, core: number): boolean {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface ThreadCpu {
  /** CPU seconds (user + system). */
  readonly seconds: number;
  readonly nice: number;
}

/** Every thread of `pid`: its CPU seconds so far and its nice value, by thread id. */
function threads(pid: number): Map<number, ThreadCpu> {
  const out = new Map<number, ThreadCpu>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The thread's name may hold spaces: fields are counted after its closing parenthesis (field 3 is at 0).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { seconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond, nice: Number(fields[16]) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** The server's CPU over a window: the main thread (the event loop), the engine's threads (niced), and the rest. */
export interface ServerCpu {
  readonly seconds: number;
  readonly mainMs: number;
  /** Threads running below normal priority: the engine's searches. */
  readonly nicedMs: number;
  readonly otherMs: number;
  /** Nice values of the threads that used CPU in the window, with how many had each. */
  readonly nices: string;
}

/** Starts a window on the server's threads; `stop` sums it up. */
export function watchServer(pid: number): { stop(): ServerCpu } {
  const before = threads(pid);
  const startedAt = performance.now();
  return {
    stop() {
      const after = threads(pid);
      let mainMs = 0;
      let nicedMs = 0;
      let otherMs = 0;
      const nices = new Map<number, number>();
      for (const [tid, now] of after) {
        const used = (now.seconds - (before.get(tid)?.seconds ?? 0)) * 1000;
        if (used > 0) nices.set(now.nice, (nices.get(now.nice) ?? 0) + 1);
        if (tid === pid) mainMs += used;
        else if (now.nice > 0) nicedMs += used;
        else otherMs += used;
      }
      return {
        seconds: (performance.now() - startedAt) / 1000,
        mainMs,
        nicedMs,
        otherMs,
        nices: [...nices].map(([nice, n]) => `${n} at nice ${nice}`).join(', '),
      };
    },
  };
}

/** The server's event-loop delay since the last read (its metrics reset the histogram at every read), in ms. */
export async function serverLoopDelay(metricsUrl: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const ms = (name: string) => (metricSample(text, `oanquan_nodejs_eventloop_lag_${name}_seconds`) ?? NaN) * 1000;
  return { p99: ms('p99'), max: ms('max') };
}

/** One line: CPU per move of the whole server and of its main thread, and where the rest went. */
export function cpuLine(cpu: ServerCpu, moves: number): string {
  const per = (ms: number) => (moves > 0 ? (ms / moves).toFixed(2) : 'n/a');
  const total = cpu.mainMs + cpu.nicedMs + cpu.otherMs;
  const share = (ms: number) => ((ms / 1000 / cpu.seconds) * 100).toFixed(0);
  return (
    `server CPU ${per(total)} ms a move (${moves} moves), main thread ${per(cpu.mainMs)} ms a move; ` +
    `cores used: main ${share(cpu.mainMs)}%, engine (niced) ${share(cpu.nicedMs)}%, other threads ${share(cpu.otherMs)}% [threads: ${cpu.nices}]`
  );
}
