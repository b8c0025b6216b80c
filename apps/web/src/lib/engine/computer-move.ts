// The computer's move, found in the page by the engine in a module worker
// (engine.worker.ts). The worker, and with it the engine's code, is fetched
// on the first call only; a page imports this module lazily
// (`await import('$lib/engine/computer-move')`) to keep even this wrapper
// out of its first load.

import { isLevel, type GameInput, type Level } from '@oanquan/engine/browser';
import type { Move } from '@oanquan/rules';
import { ERR_ENGINE_WORKER, type MoveReply, type MoveRequest } from './engine-messages.js';

export { ERR_GAME_OVER, ERR_ENGINE_WORKER } from './engine-messages.js';

/** Why no move came: a rules code for an illegal game, ERR_BAD_POSITION, ERR_GAME_OVER, ERR_ENGINE_WORKER. */
export class ComputerMoveError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ComputerMoveError';
  }
}

interface Pending {
  resolve(move: Move): void;
  reject(error: Error): void;
}

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function engineWorker(): Worker {
  if (worker !== null) return worker;
  const started = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
  started.onmessage = ({ data }: MessageEvent<MoveReply>) => {
    const call = pending.get(data.id);
    if (call === undefined) return;
    pending.delete(data.id);
    if (data.ok) call.resolve(data.move);
    else call.reject(new ComputerMoveError(data.code, data.message));
  };
  // A worker that fails to load or dies answers nothing more: every waiting call is told, and the next call starts afresh.
  started.onerror = (event) => {
    event.preventDefault();
    stopComputer(new ComputerMoveError(ERR_ENGINE_WORKER, event.message || 'the engine worker failed'));
  };
  worker = started;
  return started;
}

/**
 * The move the computer plays at `level` (1–8) in `game` (its moves from
 * the start, or a position), with the server bots' budgets for that level.
 * The same game, level and seed give the same move as the engine on the
 * server; without a seed the low levels vary their choice as a person would.
 */
export function computerMove(game: GameInput, level: Level, options: { seed?: number } = {}): Promise<Move> {
  if (!isLevel(level)) return Promise.reject(new RangeError('level must be 1 to 8'));
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const request: MoveRequest = { id: nextId++, game, level, seed };
  return new Promise<Move>((resolve, reject) => {
    pending.set(request.id, { resolve, reject });
    engineWorker().postMessage(request);
  });
}

/** Ends the worker (a page that is done with the computer frees its memory); waiting calls reject. */
export function stopComputer(reason: Error = new ComputerMoveError(ERR_ENGINE_WORKER, 'the engine was stopped')): void {
  worker?.terminate();
  worker = null;
  for (const call of pending.values()) call.reject(reason);
  pending.clear();
}
