// R10.10 Who starts among four (carried out by the server, as R2.4's
// rock–paper–scissors is): all still in show a hand at once; all three shapes
// or only one shape → they show again; otherwise the winning shape's players
// stay. Repeat until one remains.

import type { Seat } from './four-board.js';

export type Shape = 'rock' | 'paper' | 'scissors';

const BEATS: Readonly<Record<Shape, Shape>> = { rock: 'scissors', paper: 'rock', scissors: 'paper' };

/**
 * One showing: the players who stay in (the same players when they must show
 * again). Exactly two shapes were shown, so one of them beats the other.
 * R10.10 speaks of all four showing first; the rounds after it are shown by
 * those still in, so any number from two on is accepted.
 */
export function handsShown(hands: readonly { readonly seat: Seat; readonly hand: Shape }[]): Seat[] {
  if (hands.length < 2) throw new RangeError('at least two players show a hand');
  const shapes = new Set(hands.map((h) => h.hand));
  if (shapes.size !== 2) return hands.map((h) => h.seat);
  const [a, b] = [...shapes] as [Shape, Shape];
  const winning = BEATS[a] === b ? a : b;
  return hands.filter((h) => h.hand === winning).map((h) => h.seat);
}
