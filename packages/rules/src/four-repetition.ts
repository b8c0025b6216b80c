// R10.6 with R4.5: the four-player game ends when a state occurs for the
// third time. The state is the board, the four quan flags, the four stocks,
// all debts and the mover. Quan pieces only leave the board and debts only
// grow, so once either changes no earlier state can come back: the history
// starts afresh there and its keys leave them out.
//
// Plainer than the two-player history (repetition.ts): a key is a string and
// the history an immutable list walked back in full. A four-player game is
// not searched by the engine, so this is not a hot path, and a branch from
// an earlier state shares its prefix for free.

import type { CapturedStock } from './position.js';

export class FourHistory {
  private constructor(
    private readonly key: string,
    private readonly previous: FourHistory | null,
    /** States recorded since the last irreversible change. */
    readonly length: number,
    /** How often the newest state has occurred, itself included. */
    readonly count: number,
  ) {}

  /** A history holding one state: the start of a game, or the first state after an irreversible change. */
  static start(squares: readonly number[], captured: readonly CapturedStock[], mover: number): FourHistory {
    return new FourHistory(keyOf(squares, captured, mover), null, 1, 1);
  }

  /** This history with one more state. */
  extend(squares: readonly number[], captured: readonly CapturedStock[], mover: number): FourHistory {
    const key = keyOf(squares, captured, mover);
    let count = 1;
    for (let h: FourHistory | null = this; h !== null; h = h.previous) if (h.key === key) count++;
    return new FourHistory(key, this, this.length + 1, count);
  }
}

function keyOf(squares: readonly number[], captured: readonly CapturedStock[], mover: number): string {
  return `${squares.join('.')}/${captured.map((stock) => stock.dan).join('.')}/${mover}`;
}
