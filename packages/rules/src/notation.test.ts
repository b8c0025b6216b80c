// R7.1 move notation, with R1.4's numbering of each player's squares.

import { describe, expect, it } from 'vitest';
import { squareOf } from './board.js';
import { formatMove, parseMove } from './notation.js';

describe('R7.1', () => {
  it.each([
    { player: 0, square: 1, dir: -1, text: '1<' },
    { player: 0, square: 3, dir: 1, text: '3>' },
    { player: 0, square: 5, dir: 1, text: '5>' },
    { player: 1, square: 9, dir: -1, text: '3<' },
    { player: 1, square: 7, dir: 1, text: '1>' },
    { player: 1, square: 11, dir: -1, text: '5<' },
  ] as const)('player $player: square $square dir $dir is $text', ({ player, square, dir, text }) => {
    expect(formatMove({ square, dir }, player)).toBe(text);
    expect(parseMove(text, player)).toEqual({ square, dir });
  });

  it.each([
    { player: 0, square: 3, dir: 1, ascii: '3>', arrows: '3\u21ba' },
    { player: 0, square: 1, dir: -1, ascii: '1<', arrows: '1\u21bb' },
    { player: 1, square: 9, dir: -1, ascii: '3<', arrows: '3\u21bb' },
    { player: 1, square: 7, dir: 1, ascii: '1>', arrows: '1\u21ba' },
  ] as const)('R1.3: $ascii by player $player is $arrows on the screens, read back either way', ({ player, square, dir, ascii, arrows }) => {
    expect(formatMove({ square, dir }, player, 'arrows')).toBe(arrows);
    expect(parseMove(arrows, player)).toEqual({ square, dir });
    expect(parseMove(ascii, player)).toEqual(parseMove(arrows, player));
  });

  it('R1.4: k counts from the player’s own left', () => {
    expect([1, 2, 3, 4, 5].map((k) => squareOf(0, k))).toEqual([1, 2, 3, 4, 5]);
    expect([1, 2, 3, 4, 5].map((k) => squareOf(1, k))).toEqual([7, 8, 9, 10, 11]);
  });

  it.each(['', '0>', '6<', '3', '>', '3>>', ' 3>', '3 >', '3=', 'a>', '33', '3\u2192', '\u21ba3'])('rejects %j', (text) => {
    expect(parseMove(text, 0)).toBeNull();
  });

  it('refuses to write a square that is not the player’s', () => {
    expect(() => formatMove({ square: 7, dir: 1 }, 0)).toThrow(RangeError);
    expect(() => formatMove({ square: 0, dir: 1 }, 0)).toThrow(RangeError);
    expect(() => formatMove({ square: 6, dir: -1 }, 1)).toThrow(RangeError);
  });
});
