// R1.1, R1.3, R10.2: a ring of squares with a mandarin square every sixth
// square, walked in two directions. The classic board is a ring of 12 with
// two mandarin squares (R1), the four-player board a ring of 24 with four
// (R10.2); a turn (R3, R10.4) is the same walk on either.

import type { DropEvent } from './events.js';

export interface Ring {
  readonly size: number;
  /**
   * The square after each square toward +1 and toward −1. Sowing walks the
   * ring once per stone, so a table lookup replaces a modulo on the hottest
   * path. The tables are not frozen: loads from frozen arrays are measurably
   * slower, and callers only get them typed readonly.
   */
  readonly plus: readonly number[];
  readonly minus: readonly number[];
  /** Per square: its quan piece's bit in a quan bit set (bit i for mandarin square 6i), 0 on citizen squares. */
  readonly quanBit: readonly number[];
  /** Drops carry nothing but the square, so one frozen event per square serves every turn. */
  readonly drops: readonly DropEvent[];
  /**
   * R3.7: a lap adds one dân to every mandarin square and sowing never takes
   * any back, so a turn sows at most (dân ÷ mandarin squares + 1) laps.
   * Stones sown beyond this guard mean a bug.
   */
  readonly stoneGuard: number;
}

export function makeRing(size: number, totalDan: number): Ring {
  const squares = Array.from({ length: size }, (_, i) => i);
  const mandarins = size / 6;
  return {
    size,
    plus: squares.map((i) => (i + 1) % size),
    minus: squares.map((i) => (i + size - 1) % size),
    quanBit: squares.map((i) => (i % 6 === 0 ? 1 << (i / 6) : 0)),
    drops: Object.freeze(squares.map((square) => Object.freeze({ type: 'drop' as const, square }))),
    // About three times the bound, so that only a broken turn trips it.
    stoneGuard: 3 * size * (Math.ceil(totalDan / mandarins) + 1),
  };
}
