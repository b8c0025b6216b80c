import { citizenSquares, type Position } from '@oanquan/rules';

/** One square emptied at the end (R5.1): a row square goes to its owner, a mandarin square is split. */
export interface SweepStep {
  readonly square: number;
  readonly count: number;
  readonly to: 0 | 1 | 'split';
}

/**
 * The final sweep of R5.1 as steps to show one by one: player 0's row,
 * player 1's row, then the dân of both mandarin squares shared out. Empty
 * squares are skipped. The amounts are read off the board; the scores
 * themselves come from the rules' `scoreBreakdown`.
 */
export function sweepSteps(position: Pick<Position, 'squares'>): SweepStep[] {
  const steps: SweepStep[] = [];
  for (const player of [0, 1] as const) {
    for (const square of citizenSquares(player)) {
      const count = position.squares[square]!;
      if (count > 0) steps.push({ square, count, to: player });
    }
  }
  for (const square of [0, 6]) {
    const count = position.squares[square]!;
    if (count > 0) steps.push({ square, count, to: 'split' });
  }
  return steps;
}

/** The board after the first `done` steps: what has been swept is empty. */
export function sweptSquares(squares: readonly number[], steps: readonly SweepStep[], done: number): number[] {
  const left = [...squares];
  for (const step of steps.slice(0, done)) left[step.square] = 0;
  return left;
}
