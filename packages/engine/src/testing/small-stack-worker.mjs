// Runs one bestMove in a worker thread whose stack the caller sizes, as a
// browser's worker is sized: registers tsx (a worker does not inherit its
// parent's loaders), plays the state described by workerData and posts the
// move or the error's name back.

import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();

const { stateFromPosition } = await import('@oanquan/rules');
const { bestMove } = await import('../best-move.ts');

const state = stateFromPosition(workerData.position, workerData.rules);
try {
  const result = bestMove(state, workerData.options);
  parentPort.postMessage({ ok: true, move: result.move, exact: result.exact ?? false });
} catch (error) {
  parentPort.postMessage({ ok: false, name: error?.name, message: String(error?.message) });
}
