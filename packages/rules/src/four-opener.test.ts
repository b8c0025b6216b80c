// R10.10 who starts among four.

import { describe, expect, it } from 'vitest';
import type { Seat } from './four-board.js';
import { handsShown, type Shape } from './four-opener.js';

const show = (...hands: Shape[]) => handsShown(hands.map((hand, seat) => ({ seat: seat as Seat, hand })));

describe('R10.10 who starts among four', () => {
  it('all three shapes, or one shape only: everyone shows again', () => {
    expect(show('rock', 'paper', 'scissors', 'rock')).toEqual([0, 1, 2, 3]);
    expect(show('paper', 'paper', 'paper', 'paper')).toEqual([0, 1, 2, 3]);
  });

  it('two shapes: those who showed the winning one stay, until one remains', () => {
    expect(show('rock', 'scissors', 'rock', 'scissors')).toEqual([0, 2]);
    expect(show('scissors', 'paper', 'paper', 'paper')).toEqual([0]);
    expect(handsShown([{ seat: 3, hand: 'paper' }, { seat: 1, hand: 'scissors' }])).toEqual([1]);
    expect(() => handsShown([{ seat: 3, hand: 'paper' }])).toThrow(RangeError);
  });
});
