// The file each pool worker starts from. The workspace packages are
// TypeScript sources, and a worker thread does not inherit its parent's
// loaders, so the worker registers tsx itself before loading the engine's
// worker module, whose URL the pool passes in workerData.

import { workerData } from 'piscina';
import { register } from 'tsx/esm/api';

register();

export const { bestMove, analyse } = await import(workerData.worker);
