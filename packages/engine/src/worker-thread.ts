// The module each pool worker runs: it sets this thread's priority as the
// pool asks, then serves the tasks of worker.ts. Kept apart from worker.ts,
// which the package's index also imports (for its error code) on the
// caller's thread, where no priority may change.

import { workerData } from 'piscina';
import { setThreadNice } from './thread-priority.js';

const { nice, idle } = (workerData ?? {}) as { nice?: number; idle?: boolean };
if (nice !== undefined) setThreadNice(nice, idle);

export { analyse, bestMove, findGamePuzzles, selfPlayPuzzles } from './worker.js';
