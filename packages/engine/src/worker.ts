// The worker side of the engine pool: each export is one task, run off the
// caller's event loop. Requests and answers are plain data (structured clone).

import { newGame, play, stateFromPosition, validatePosition, type Position, type RuleOptions, type State } from '@oanquan/rules';
import { analyse as analyseGame, type AnalysisOptions, type AnalysisResult, type GameMoves } from './analysis.js';
import { bestMove as search, type BestMove, type SearchOptions } from './best-move.js';
import { gamePuzzles, type GamePuzzleOptions } from './puzzles/game-puzzles.js';
import type { Puzzle } from './puzzles/find-puzzle.js';
import { selfPlayPuzzles as selfPlay, type SelfPlayOptions } from './puzzles/self-play.js';

export { setThreadNice } from './thread-priority.js';

export const ERR_BAD_POSITION = 'ERR_BAD_POSITION';

/** A game to search: its moves from the start, or a position (a study). */
export type GameInput = GameMoves | { readonly rules?: Partial<RuleOptions>; readonly position: Position };

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
  const state = stateOf(task.game);
  if ('code' in state) return state;
  if (state.position.status !== 'playing') return { ok: false, code: 'ERR_GAME_OVER', message: 'the game has ended' };
  return { ok: true, value: search(state, task.options) };
}

export function analyse(task: AnalyseTask): AnalysisResult {
  return analyseGame(task.game, task.options);
}

function stateOf(game: GameInput): State | { ok: false; code: string; message: string } {
  if ('position' in game) {
    const checked = validatePosition(game.position);
    if (!checked.ok) return { ok: false, code: ERR_BAD_POSITION, message: checked.message };
    return stateFromPosition(checked.position, game.rules);
  }
  let state = newGame({ rules: game.rules ?? {}, first: game.first ?? 0 });
  for (const [ply, move] of game.moves.entries()) {
    const next = play(state, move);
    if (!next.ok) return { ok: false, code: next.code, message: `move ${ply} is not legal` };
    state = next.state;
  }
  return state;
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
