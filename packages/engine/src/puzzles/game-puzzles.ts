// Puzzles from a finished game: the positions where a player went wrong (the
// move they missed may be a puzzle) and those right after (the punishment
// may be one), as the game's analysis labels them; without an analysis,
// every position is screened.

import { newGame, play, type State } from '@oanquan/rules';
import type { GameMoves } from '../analysis.js';
import { findPuzzle, type Puzzle, type PuzzleOptions } from './find-puzzle.js';

export interface GamePuzzleOptions extends PuzzleOptions {
  /** Plies (indices of moves in the game; the number of moves for the last position) worth a look: the positions before them are screened. */
  readonly plies?: readonly number[];
  /** Puzzles from one game, at most. */
  readonly perGame?: number;
}

/** The game's verified puzzles, in the order of the game; an illegal move ends the search there. */
export function gamePuzzles(game: GameMoves, options: GamePuzzleOptions = {}): Puzzle[] {
  const wanted = options.plies === undefined ? null : new Set(options.plies);
  const perGame = options.perGame ?? 3;
  const puzzles: Puzzle[] = [];
  let state: State = newGame({ rules: game.rules ?? {}, first: game.first ?? 0 });
  for (const [ply, move] of game.moves.entries()) {
    if (puzzles.length >= perGame) break;
    if (wanted === null || wanted.has(ply)) {
      const puzzle = findPuzzle(state, options);
      if (puzzle !== null) puzzles.push(puzzle);
    }
    const next = play(state, move);
    if (!next.ok) return puzzles;
    state = next.state;
  }
  // A game resigned or abandoned may stop where the punishment was due: the last position counts too.
  if (puzzles.length < perGame && (wanted === null || wanted.has(game.moves.length))) {
    const puzzle = findPuzzle(state, options);
    if (puzzle !== null) puzzles.push(puzzle);
  }
  return puzzles;
}

/** From an analysis's labels: each mistake or blunder and the ply right after it. */
export function pliesWorthALook(plies: readonly { readonly ply: number; readonly label: string }[]): number[] {
  const wanted = new Set<number>();
  for (const { ply, label } of plies) {
    if (label === 'mistake' || label === 'blunder') {
      wanted.add(ply);
      wanted.add(ply + 1);
    }
  }
  return [...wanted].sort((a, b) => a - b);
}
