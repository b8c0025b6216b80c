import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Which process has an embedded database's directory open. PGlite keeps no
 * lock a second process could see (its postmaster.pid names no real process
 * and outlives a crash), and a copy taken while a server writes, or a restore
 * under a running server, is a broken database. So the server writes its
 * process id and start time here while it has the directory open; the
 * backup and restore commands refuse while that process lives.
 */
export const HOLDER_FILE = 'oanquan-server.pid';

interface Holder {
  pid: number;
  /** The process's start time since boot in clock ticks (/proc/<pid>/stat), so a recycled id is not taken for it; null off Linux. */
  started: string | null;
}

function startTicks(pid: number | 'self'): string | null {
  try {
    // The command name (field 2) may hold spaces and parentheses: count the fields after its closing one.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Writes this process in as the directory's holder; the answer removes it. */
export function holdDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, HOLDER_FILE);
  const holder: Holder = { pid: process.pid, started: startTicks('self') };
  writeFileSync(file, JSON.stringify(holder));
  return () => rmSync(file, { force: true });
}

/** The live process holding `dataDir` (not this one), or undefined; a holder left by a process that is gone does not count. */
export function dataDirHolder(dataDir: string): number | undefined {
  let holder: Holder;
  try {
    holder = JSON.parse(readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as Holder;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(holder.pid) || holder.pid === process.pid) return undefined;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  const started = startTicks(holder.pid);
  return holder.started !== null && started !== null && started !== holder.started ? undefined : holder.pid;
}
