// The worker side of the engine pool: each export is one task, run off the
// caller's event loop. Requests and answers are plain data (structured clone).

import { analyse as analyseGame, type AnalysisOptions, type AnalysisResult, type GameMoves } from './analysis.js';
import { stateOfGame, type GameInput } from './game-input.js';
import { bestMove as search, type BestMove, type SearchOptions } from './best-move.js';
import { gamePuzzles, type GamePuzzleOptions } from './puzzles/game-puzzles.js';
import type { Puzzle } from './puzzles/find-puzzle.js';
import { selfPlayPuzzles as selfPlay, type SelfPlayOptions } from './puzzles/self-play.js';

export { setThreadNice } from './thread-priority.js';

export { ERR_BAD_POSITION, type GameInput } from './game-input.js';

export type TaskResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: string; readonly message: string };

export interface BestMoveTask {
  readonly game: GameInput;
  readonly options: SearchOptions;
}

export interface AnalyseTask {
  readonly game: GameMoves;
  readonly options: AnalysisOptions;
}

export function bestMove(task: BestMoveTask): TaskResult<BestMove> {
  const state = stateOfGame(task.game);
  if ('code' in state) return state;
  if (state.position.status !== 'playing') return { ok: false, code: 'ERR_GAME_OVER', message: 'the game has ended' };
  return { ok: true, value: search(state, task.options) };
}

export function analyse(task: AnalyseTask): AnalysisResult {
  return analyseGame(task.game, task.options);
}

export interface GamePuzzlesTask {
  readonly game: GameMoves;
  readonly options: GamePuzzleOptions;
}

export function selfPlayPuzzles(options: SelfPlayOptions): Puzzle[] {
  return selfPlay(options);
}

export function findGamePuzzles(task: GamePuzzlesTask): Puzzle[] {
  return gamePuzzles(task.game, task.options);
}
