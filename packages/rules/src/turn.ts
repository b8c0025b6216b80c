// R3 A turn: sowing (R3.2), what the square after the last stone decides
// (R3.3), the capture chain (R3.4, R3.5), quan non (R3.6) and the guard
// against an endless turn (R3.7); on the ring of 12 (R1) or of 24 (R10.4).

import type { Direction } from './board.js';
import type { TurnEventSink } from './events.js';
import type { Ring } from './ring.js';
import type { RuleOptions } from './rule-options.js';

/**
 * Quan pieces on the board as a bit set: bit i for mandarin square 6i. A
 * turn touches them in its innermost loop, so a number beats a tuple there.
 */
export type QuanBits = number;

/**
 * Plays one turn on `squares` of `ring` in place, from a legal `origin`.
 * Returns what the mover captured packed into one number (dân in bits 0–7,
 * the quan bits taken from bit 8 on) so the hot path allocates nothing: read
 * it with `capturedDan` and `capturedQuan`. Events are appended to `events`
 * unless it is null.
 */
export function playTurn(
  ring: Ring,
  squares: number[],
  quan: QuanBits,
  origin: number,
  dir: Direction,
  rules: RuleOptions,
  events: TurnEventSink | null,
): number {
  const next = dir === 1 ? ring.plus : ring.minus;
  const quanBit = ring.quanBit;
  const drops = ring.drops;
  const stoneGuard = ring.stoneGuard;
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
    if (stones > stoneGuard) throw new Error('R3.7: the turn does not end');
    while (hand > 0) {
      at = next[at]!;
      if (skipOrigin && at === from) continue;
      squares[at]!++;
      hand--;
      if (events !== null) events.push(drops[at]!);
    }
    gap = next[at]!;
    const bit = quanBit[gap]!;
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
    const bit = quanBit[target]!;
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
    if (squares[after] !== 0 || (quan & quanBit[after]!) !== 0) break;
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
