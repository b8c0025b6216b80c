// Searches are long bursts of CPU; the thread that asked for them usually
// runs an event loop whose every delay a person feels. On Linux a nice value
// applies to one thread, so a search thread can give way to its process's
// main thread without the process as a whole losing priority.
//
// Nice 19 alone still lets a search finish its time slice before a thread
// that wakes up (a socket read, a database answer) gets the core, a few
// milliseconds each time. A search with a deadline of its own (the
// computer's move) may also be put in the idle scheduling class, which gives
// the core up at once to anything else that wants it; a search without one
// (an analysis, a puzzle) is not, as it could starve on a busy machine. Node
// has no call for that, so `chrt` (util-linux) sets it.

import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { debuglog } from 'node:util';

const debug = debuglog('oanquan_engine');

/**
 * Sets the calling thread's nice value (0 normal, 19 lowest) and, when
 * `idle`, its scheduling class to the idle one. Elsewhere than Linux it does nothing; a
 * refusal is logged (NODE_DEBUG=oanquan_engine) and otherwise ignored: a
 * search at normal priority is slower for others, not wrong.
 */
export function setThreadNice(nice: number, idle = false): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "<pid>/task/<tid>": the kernel's id of this very thread.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(tid) || tid <= 0) throw new Error('no thread id in /proc/thread-self');
    setPriority(tid, nice);
    if (idle) idleClass(tid);
    return true;
  } catch (error) {
    debug('could not set the search thread nice to %d: %s', nice, error instanceof Error ? error.message : String(error));
    return false;
  }
}

function idleClass(tid: number): void {
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
  } catch (error) {
    debug('could not put the search thread in the idle class: %s', error instanceof Error ? error.message : String(error));
  }
}
