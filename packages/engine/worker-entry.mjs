// The file each pool worker starts from. The workspace packages are
// TypeScript sources, and a worker thread does not inherit its parent's
// loaders, so the worker registers tsx itself before loading the engine's
// worker module, whose URL the pool passes in workerData, and sets this
// thread's priority as the pool asks.

import { workerData } from 'piscina';
import { register } from 'tsx/esm/api';

register();

const worker = await import(workerData.worker);
if (workerData.nice !== undefined) worker.setThreadNice(workerData.nice);

export const { bestMove, analyse } = worker;
