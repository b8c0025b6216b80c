import type { ProcessUse } from './process-stats.js';
import { formatPercentiles, type Percentiles } from './stats.js';

/** What one run of the load bench measured, the floor relay's or the server's. */
export interface Figures {
  offered: number;
  sent: number;
  achieved: number;
  ack: Percentiles;
  /** From a move's sending to its event reaching the opponent. */
  relayed: Percentiles;
  errors: string;
  errorCount: number;
  resent: string;
  lost: number | null;
  duplicates: number;
  gaps: number;
  outOfOrder: number;
  processes: ProcessUse[];
  /** CPU time of every process together per acknowledged move, in ms, and the kernel's part of it. */
  cpuPerMoveMs: number;
  systemPerMoveMs: number;
  /** CPU time of PostgreSQL's processes per acknowledged move, in ms (none on PGlite, which is in the server's). */
  databaseCpuPerMoveMs: number | null;
  /** Read and write system calls of every process together per acknowledged move. */
  syscallsPerMove: number;
  /** A move's frame as a player received it, in bytes. */
  movedFrame: { average: number; largest: number; count: number };
  /** How late the event loops ran: each server's and this process's, whose players time the acks. */
  loops: string;
  /** Each server's hot statements over the window, by name, per acknowledged move (of every process). */
  statementsPerMove: Array<Map<string, number>>;
  /** The machine's load average (1, 5, 15 minutes) at the end of the measured window: other work shares it. */
  load: number[];
}

/** A run's figures as printed, under `label`; `database` says which PostgreSQL's processes were counted. */
export function formatFigures(label: string, f: Figures, database: string): string {
  const cpu = f.processes.map((p) => `${p.cpuPercent.toFixed(0)} %`).join(' + ');
  const rss = f.processes.map((p) => `${p.peakRssMb.toFixed(0)} MB`).join(' + ');
  return (
    `  ${label}: moves/s offered ≈ ${f.offered.toFixed(0)}, sent ${f.sent.toFixed(0)}, achieved ${f.achieved.toFixed(0)} (${((100 * f.achieved) / f.offered).toFixed(0)} %)\n` +
    `    ack ${formatPercentiles(f.ack)}\n` +
    `    event at the opponent ${formatPercentiles(f.relayed)}\n` +
    `    errors: ${f.errors}; refused and sent again: ${f.resent}; acknowledged moves missing from the database: ${f.lost ?? 'not checked'}; events seen twice ${f.duplicates}, missed ${f.gaps}, out of order ${f.outOfOrder}\n` +
    `    CPU ${cpu}, ${f.cpuPerMoveMs.toFixed(3)} ms per move (system ${f.systemPerMoveMs.toFixed(3)} ms), ${f.syscallsPerMove.toFixed(1)} read and write system calls per move; peak RSS ${rss}\n` +
    (f.databaseCpuPerMoveMs === null ? '' : `    PostgreSQL CPU ${f.databaseCpuPerMoveMs.toFixed(3)} ms per move (${database})\n`) +
    `    a move's frame as received: ${f.movedFrame.average.toFixed(0)} bytes on average, largest ${f.movedFrame.largest}, over ${f.movedFrame.count}\n` +
    `    ${f.loops}\n` +
    (f.statementsPerMove.length
      ? `    hot statements per acknowledged move: ${perProcess(f, (name) => !name.startsWith('gc '))}\n` +
        `    main-thread garbage collection per acknowledged move (ms, and collections): ${perProcess(f, (name) => name.startsWith('gc '))}\n`
      : '') +
    `    load average ${f.load.map((x) => x.toFixed(2)).join(', ')}`
  );
}

function perProcess(f: Figures, include: (name: string) => boolean): string {
  return f.statementsPerMove
    .map((counts, i) => `process ${i + 1}: ${[...counts].filter(([name]) => include(name)).map(([name, n]) => `${name} ${n.toPrecision(3)}`).join(', ') || 'none'}`)
    .join('; ');
}
