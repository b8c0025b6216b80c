// The file each pool worker starts from when the engine runs from its
// TypeScript sources: a worker thread does not inherit its parent's loaders,
// so the worker registers tsx itself before loading the engine's worker
// module (src/worker-thread.ts), whose URL the pool passes in workerData.
// Built JavaScript needs no loader: the pool starts its worker module directly.

import { workerData } from 'piscina';
import { register } from 'tsx/esm/api';

register();

export const { bestMove, analyse, selfPlayPuzzles, findGamePuzzles } = await import(workerData.worker);
