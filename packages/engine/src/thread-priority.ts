// Searches are long bursts of CPU; the thread that asked for them usually
// runs an event loop whose every delay a person feels. On Linux a nice value
// applies to one thread, so a search thread can give way to its process's
// main thread without the process as a whole losing priority.

import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { debuglog } from 'node:util';

const debug = debuglog('oanquan_engine');

/**
 * Sets the calling thread's nice value (0 normal, 19 lowest). Elsewhere than
 * Linux it does nothing; a refusal is logged (NODE_DEBUG=oanquan_engine) and
 * otherwise ignored: a search at normal priority is slower for others, not wrong.
 */
export function setThreadNice(nice: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "<pid>/task/<tid>": the kernel's id of this very thread.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (!Number.isInteger(tid) || tid <= 0) throw new Error('no thread id in /proc/thread-self');
    setPriority(tid, nice);
    return true;
  } catch (error) {
    debug('could not set the search thread nice to %d: %s', nice, error instanceof Error ? error.message : String(error));
    return false;
  }
}
