// Puzzle ratings: each first try is a rated game between the solver and
// the puzzle (Glicko-2, as for games): solving is a win for the solver,
// failing a win for the puzzle. So puzzles that many fail climb, and a
// solver is offered puzzles near their own rating.

import { updateGlicko, type Glicko } from '@oanquan/protocol';

export interface PuzzleGame {
  solver: Glicko;
  puzzle: Glicko;
}

/** Both sides after one try. */
export function ratePuzzleTry({ solver, puzzle }: PuzzleGame, solved: boolean): PuzzleGame {
  const score = solved ? 1 : 0;
  return {
    solver: updateGlicko(solver, [{ opponent: puzzle, score }]),
    puzzle: updateGlicko(puzzle, [{ opponent: solver, score: 1 - score }]),
  };
}
