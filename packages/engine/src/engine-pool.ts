// A small pool of worker threads for searches and analyses, so that neither
// ever runs on the caller's event loop. Each call has a time limit; a call
// past it is aborted (its worker is replaced) and rejects with
// ERR_ENGINE_TIMEOUT. The search's own budget (`timeMs`, `deadlineAt`)
// normally ends it long before.
//
// The workers run at the lowest scheduling priority (on Linux): a search
// uses every cycle it gets, and on a small machine it would otherwise take
// them from the caller's event loop, whose delays people feel. Callers that
// need an answer by a given time say so with `deadlineAt`, which holds
// however little CPU the search got.

import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { AnalysisOptions, AnalysisResult, GameAnalysis, GameMoves } from './analysis.js';
import type { BestMove, SearchOptions } from './best-move.js';
import type { GamePuzzleOptions } from './puzzles/game-puzzles.js';
import type { Puzzle } from './puzzles/find-puzzle.js';
import type { SelfPlayOptions } from './puzzles/self-play.js';
import type { AnalyseTask, BestMoveTask, GameInput, GamePuzzlesTask, TaskResult } from './worker.js';

export const ERR_ENGINE_TIMEOUT = 'ERR_ENGINE_TIMEOUT';

/** An engine call that did not give a result: a bad game, an ended game, or the time limit. */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface EnginePoolOptions {
  /**
   * Worker threads; one by default, at most four per core. More threads than
   * cores is the point when many callers need answers by a deadline: the
   * searches then share the cores (below the caller, at their low priority)
   * and each stops at its own deadline, where with fewer threads a search
   * waits for the one ahead of it and answers late.
   */
  readonly threads?: number;
  /** The workers' nice value, 0 (normal) to 19 (lowest, the default). */
  readonly nice?: number;
  /**
   * The workers in the idle scheduling class too (Linux): they give the core
   * up at once to any other thread. Only for searches that end by a deadline
   * of their own, since on a busy machine an idle-class thread barely runs.
   */
  readonly idle?: boolean;
}

export interface CallLimit {
  /** Wall time the call may take, queueing included. */
  readonly limitMs?: number;
}

const DEFAULT_MOVE_LIMIT_MS = 5000;
const DEFAULT_ANALYSIS_LIMIT_MS = 120_000;
const DEFAULT_PUZZLE_LIMIT_MS = 120_000;
const LOWEST_PRIORITY = 19;
const THREADS_PER_CORE = 4;

const fromSources = import.meta.url.endsWith('.ts');
/**
 * The worker module beside this one, in the sources or a build (the
 * package's own, or a bundle that puts worker-thread.js beside its entry).
 */
const WORKER = new URL(fromSources ? './worker-thread.ts' : './worker-thread.js', import.meta.url).href;
/** From the sources, tsx is registered in the worker first (see worker-entry.mjs); a build needs no loader. */
const ENTRY = fromSources ? new URL('../worker-entry.mjs', import.meta.url).href : WORKER;

export class EnginePool {
  readonly #pool: Piscina;
  /** The worker threads actually started, after the cap. */
  readonly threads: number;

  constructor(options: EnginePoolOptions = {}) {
    const threads = Math.max(1, Math.min(options.threads ?? 1, THREADS_PER_CORE * availableParallelism()));
    this.threads = threads;
    this.#pool = new Piscina({
      filename: ENTRY,
      workerData: { worker: WORKER, nice: options.nice ?? LOWEST_PRIORITY, idle: options.idle ?? false },
      minThreads: threads,
      maxThreads: threads,
    });
  }

  async bestMove(game: GameInput, options: SearchOptions & CallLimit = {}): Promise<BestMove> {
    const { limitMs = DEFAULT_MOVE_LIMIT_MS, ...search } = options;
    const task: BestMoveTask = { game, options: search };
    const result = await this.#run<TaskResult<BestMove>>('bestMove', task, limitMs);
    if (!result.ok) throw new EngineError(result.code, result.message);
    return result.value;
  }

  async analyse(game: GameMoves, options: AnalysisOptions & CallLimit = {}): Promise<GameAnalysis> {
    const { limitMs = DEFAULT_ANALYSIS_LIMIT_MS, ...analysis } = options;
    const task: AnalyseTask = { game, options: analysis };
    const result = await this.#run<AnalysisResult>('analyse', task, limitMs);
    if (!result.ok) throw new EngineError(result.error.code, `move ${result.error.ply} is not legal`);
    return result.analysis;
  }

  /** One self-play game and the puzzles found in it (see puzzles/self-play.ts). */
  async selfPlayPuzzles(options: SelfPlayOptions & CallLimit): Promise<Puzzle[]> {
    const { limitMs = DEFAULT_PUZZLE_LIMIT_MS, ...task } = options;
    return this.#run<Puzzle[]>('selfPlayPuzzles', task, limitMs);
  }

  /** A finished game's puzzles (see puzzles/game-puzzles.ts). */
  async gamePuzzles(game: GameMoves, options: GamePuzzleOptions & CallLimit = {}): Promise<Puzzle[]> {
    const { limitMs = DEFAULT_PUZZLE_LIMIT_MS, ...puzzleOptions } = options;
    const task: GamePuzzlesTask = { game, options: puzzleOptions };
    return this.#run<Puzzle[]>('findGamePuzzles', task, limitMs);
  }

  /** Stops the workers; calls in flight reject. */
  async close(): Promise<void> {
    await this.#pool.destroy();
  }

  async #run<T>(name: string, task: unknown, limitMs: number): Promise<T> {
    try {
      return (await this.#pool.run(task, { name, signal: AbortSignal.timeout(limitMs) })) as T;
    } catch (error) {
      if (error instanceof Error && error.name === 'AbortError') {
        throw new EngineError(ERR_ENGINE_TIMEOUT, `no answer within ${limitMs} ms`);
      }
      throw error;
    }
  }
}
