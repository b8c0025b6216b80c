import { readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ on Linux

/** CPU time (user + system) a process has used so far, in seconds, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : NaN;
}

/** CPU share and peak resident memory of some processes over a window, sampled every second. */
export class ProcessWatch {
  private readonly startCpu: number[];
  private readonly startedAt = performance.now();
  private readonly peakRss: number[];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: number[]) {
    this.startCpu = pids.map(cpuSeconds);
    this.peakRss = pids.map(rssBytes);
    this.timer = setInterval(() => this.sample(), 1000);
  }

  private sample(): void {
    this.pids.forEach((pid, i) => {
      this.peakRss[i] = Math.max(this.peakRss[i]!, rssBytes(pid));
    });
  }

  stop(): Array<{ cpuPercent: number; peakRssMb: number }> {
    clearInterval(this.timer);
    this.sample();
    const seconds = (performance.now() - this.startedAt) / 1000;
    return this.pids.map((pid, i) => ({
      cpuPercent: ((cpuSeconds(pid) - this.startCpu[i]!) / seconds) * 100,
      peakRssMb: this.peakRss[i]! / 1024 / 1024,
    }));
  }
}
