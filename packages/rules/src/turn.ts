// R3 A turn: sowing (R3.2), what the square after the last stone decides
// (R3.3), the capture chain (R3.4, R3.5), quan non (R3.6) and the guard
// against an endless turn (R3.7).

import { stepTable, type Direction } from './board.js';
import type { DropEvent, PlyEvent } from './events.js';
import type { RuleOptions } from './rule-options.js';

/**
 * Quan pieces on the board as a bit set: bit 0 for square 0, bit 1 for
 * square 6. A turn touches them in its innermost loop, so a number beats a
 * tuple there.
 */
export type QuanBits = number;

/** The quan bit of each square; 0 for citizen squares. Not frozen, see `stepTable`. */
const QUAN_BIT: readonly number[] = [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0];

/** Drops carry nothing but the square, so one frozen event per square serves every turn. */
const DROP_EVENTS: readonly DropEvent[] = Object.freeze(
  Array.from({ length: 12 }, (_, square) => Object.freeze({ type: 'drop' as const, square })),
);

/**
 * R3.7: a turn adds at least two dân to the mandarin squares per lap and
 * never takes any back by sowing, so with at most 50 dân it sows well under
 * 12 × 27 stones. Far above that, something is broken.
 */
const STONE_GUARD = 1000;

/**
 * Plays one turn on `squares` in place, from a legal `origin`. Returns what
 * the mover captured packed into one number (dân in bits 0–7, the quan bits
 * taken in bits 8–9) so the hot path allocates nothing: read it with
 * `capturedDan` and `capturedQuan`. Events are appended to `events` unless
 * it is null.
 */
export function playTurn(
  squares: number[],
  quan: QuanBits,
  origin: number,
  dir: Direction,
  rules: RuleOptions,
  events: PlyEvent[] | null,
): number {
  const next = stepTable(dir);
  const skipOrigin = rules.skipOrigin;
  let hand = squares[origin]!;
  let from = origin;
  let at = origin;
  let stones = 0;
  squares[origin] = 0;
  if (events !== null) events.push({ type: 'pickup', square: origin, count: hand });

  let gap: number;
  for (;;) {
    // R3.2. With skipOrigin, the square skipped is the one the current
    // handful came from, a relay's included: R3.2 speaks of "the square the
    // handful came from", and a relay takes up a handful too.
    stones += hand;
    if (stones > STONE_GUARD) throw new Error('R3.7: the turn does not end');
    while (hand > 0) {
      at = next[at]!;
      if (skipOrigin && at === from) continue;
      squares[at]!++;
      hand--;
      if (events !== null) events.push(DROP_EVENTS[at]!);
    }
    gap = next[at]!;
    const bit = QUAN_BIT[gap]!;
    if (bit !== 0) {
      // R3.3a; with emptyQuanIsGap only a mandarin square with neither dân
      // nor quan piece goes on to R3.3c.
      if (!rules.emptyQuanIsGap || squares[gap] !== 0 || (quan & bit) !== 0) return 0;
      break;
    }
    if (squares[gap] === 0) break;
    // R3.3b.
    hand = squares[gap]!;
    squares[gap] = 0;
    from = gap;
    at = gap;
    if (events !== null) events.push({ type: 'relay', square: gap, count: hand });
  }

  // R3.3c: `gap` is empty; the square after it is the first capture target.
  let target = next[gap]!;
  let dan = 0;
  let taken = 0;
  const quanNon = rules.quanNon;
  for (;;) {
    const bit = QUAN_BIT[target]!;
    const hasQuan = (quan & bit) !== 0;
    const held = squares[target]!;
    // An empty target ends the turn: right after the gap (R3.3c), or as the
    // second of two empty squares in a row (R3.4).
    if (held === 0 && !hasQuan) break;
    // R3.6, both for the first target and in mid-chain.
    if (hasQuan && held < quanNon) break;
    squares[target] = 0;
    dan += held;
    if (hasQuan) {
      quan &= ~bit;
      taken |= bit;
    }
    if (events !== null) events.push({ type: 'capture', square: target, dan: held, quan: hasQuan });
    // R3.4: a gap (any empty square, an emptied mandarin square included)
    // followed by a non-empty square continues the chain.
    const after = next[target]!;
    if (squares[after] !== 0 || (quan & QUAN_BIT[after]!) !== 0) break;
    target = next[after]!;
  }
  return dan | (taken << 8);
}

export function capturedDan(packed: number): number {
  return packed & 0xff;
}

/** The quan bits captured; see `QuanBits`. */
export function capturedQuan(packed: number): QuanBits {
  return packed >> 8;
}
