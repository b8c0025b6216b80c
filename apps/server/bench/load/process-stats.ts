import { readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ on Linux

/** CPU time a process has used so far, in seconds, in its own code (user) and in the kernel's for it (system), from /proc. */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
}

/** Read and write system calls a process has made so far (sockets included), from /proc. */
function syscalls(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/syscr: (\d+)/.exec(io)?.[1]) + Number(/syscw: (\d+)/.exec(io)?.[1]);
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : NaN;
}

/** What a process used over a window. */
export interface ProcessUse {
  cpuPercent: number;
  /** The kernel's share of that CPU time (system calls: sockets, the database's connections). */
  systemPercent: number;
  /** Read and write system calls. */
  syscalls: number;
  peakRssMb: number;
}

/** CPU share, system calls and peak resident memory of some processes over a window, sampled every second. */
export class ProcessWatch {
  private readonly startCpu: Array<{ user: number; system: number }>;
  private readonly startSyscalls: number[];
  private readonly startedAt = performance.now();
  private readonly peakRss: number[];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: number[]) {
    this.startCpu = pids.map(cpuTimes);
    this.startSyscalls = pids.map(syscalls);
    this.peakRss = pids.map(rssBytes);
    this.timer = setInterval(() => this.sample(), 1000);
  }

  private sample(): void {
    this.pids.forEach((pid, i) => {
      this.peakRss[i] = Math.max(this.peakRss[i]!, rssBytes(pid));
    });
  }

  stop(): ProcessUse[] {
    clearInterval(this.timer);
    this.sample();
    const seconds = (performance.now() - this.startedAt) / 1000;
    return this.pids.map((pid, i) => {
      const { user, system } = cpuTimes(pid);
      const start = this.startCpu[i]!;
      return {
        cpuPercent: ((user - start.user + system - start.system) / seconds) * 100,
        systemPercent: ((system - start.system) / seconds) * 100,
        syscalls: syscalls(pid) - this.startSyscalls[i]!,
        peakRssMb: this.peakRss[i]! / 1024 / 1024,
      };
    });
  }
}

/**
 * CPU time of a server of many processes (PostgreSQL: a postmaster, a
 * backend per connection, its writers) over a window, in seconds: the
 * processes are listed again at its end, so a backend that connected meanwhile
 * counts whole; one that exited meanwhile is lost (pools keep theirs).
 */
export class ProcessGroupWatch {
  private readonly start: Map<number, number>;

  constructor(private readonly pids: () => number[]) {
    this.start = new Map(pids().map((pid) => [pid, total(pid)]));
  }

  stop(): number {
    return this.pids().reduce((sum, pid) => sum + total(pid) - (this.start.get(pid) ?? 0), 0);
  }
}

function total(pid: number): number {
  try {
    const { user, system } = cpuTimes(pid);
    return user + system;
  } catch {
    return 0; // gone between the listing and the reading
  }
}

/** Processes whose command is `name` (every PostgreSQL server process is `postgres`), from /proc. */
export function processesNamed(name: string): number[] {
  return processesWhere((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name);
}

/** A process and its children (a postmaster and its server processes), from /proc. */
export function processAndChildren(parent: number): number[] {
  return [parent, ...processesWhere((pid) => parentOf(pid) === parent)];
}

function parentOf(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The processes for which `keep` holds; one that exits while it is asked is left out. */
function processesWhere(keep: (pid: string) => boolean): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return keep(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}
