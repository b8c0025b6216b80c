import { describe, expect, it } from 'vitest';
import { addressOf, cursorAt, shownMove } from './replay-address.js';
import { nextStone, type Cursor, type Track } from './replay-cursor.js';

const track: Track = { total: 3, stepsOf: (ply) => [0, 2, 0, 4][ply]! };

describe('the replay address', () => {
  it('names the move being sown, not the one before it', () => {
    expect(shownMove({ ply: 0, step: null })).toBe(0);
    expect(shownMove({ ply: 0, step: 1 })).toBe(1);
    expect(shownMove({ ply: 2, step: 0 })).toBe(3);
    expect(shownMove({ ply: 3, step: null })).toBe(3);
    expect(addressOf({ ply: 2, step: 3 })).toEqual({ move: 3, stone: 4 });
    expect(addressOf({ ply: 1, step: null })).toEqual({ move: 1, stone: null });
  });

  it('opens every stone of the game at exactly the cursor it was written from', () => {
    let cursor: Cursor = { ply: 0, step: null };
    for (let i = 0; i < 12; i++) {
      const { move, stone } = addressOf(cursor);
      expect(cursorAt(track, String(move), stone === null ? null : String(stone), 0)).toEqual(cursor);
      cursor = nextStone(track, cursor);
    }
  });

  it('falls back to the rest after the move for a stone the move does not have, and to the end without a move', () => {
    expect(cursorAt(track, '1', '3', 0)).toEqual({ ply: 1, step: null });
    expect(cursorAt(track, '2', '1', 0)).toEqual({ ply: 2, step: null });
    expect(cursorAt(track, '0', '1', 0)).toEqual({ ply: 0, step: null });
    expect(cursorAt(track, '3', 'x', 0)).toEqual({ ply: 3, step: null });
    expect(cursorAt(track, null, '1', 3)).toEqual({ ply: 3, step: null });
    expect(cursorAt(track, 'abc', null, 3)).toEqual({ ply: 3, step: null });
    expect(cursorAt(track, '99', null, 0)).toEqual({ ply: 3, step: null });
  });
});
