import { describe, expect, it } from 'vitest';
import { clampPly, nextMove, nextStone, previousMove, previousStone, type Cursor, type Track } from './replay-cursor.js';

const track: Track = { total: 3, stepsOf: (ply) => [0, 2, 0, 1][ply]! };

describe('the replay cursor', () => {
  it('walks every stone forward and comes back the same way', () => {
    const forward: Cursor[] = [{ ply: 0, step: null }];
    for (let i = 0; i < 10; i++) forward.push(nextStone(track, forward.at(-1)!));
    expect(forward.slice(0, 7)).toEqual([
      { ply: 0, step: null },
      { ply: 0, step: 0 },
      { ply: 0, step: 1 },
      { ply: 1, step: null },
      { ply: 2, step: null },
      { ply: 2, step: 0 },
      { ply: 3, step: null },
    ]);
    expect(forward.at(-1)).toEqual({ ply: 3, step: null });
    const back: Cursor[] = [{ ply: 3, step: null }];
    for (let i = 0; i < 6; i++) back.push(previousStone(track, back.at(-1)!));
    expect(back).toEqual(forward.slice(0, 7).reverse());
    expect(previousStone(track, { ply: 0, step: null })).toEqual({ ply: 0, step: null });
  });

  it('steps by whole moves, back to a move’s start from partway through', () => {
    expect(nextMove(track, { ply: 0, step: 1 })).toEqual({ ply: 1, step: null });
    expect(nextMove(track, { ply: 3, step: null })).toEqual({ ply: 3, step: null });
    expect(previousMove(track, { ply: 2, step: 0 })).toEqual({ ply: 2, step: null });
    expect(previousMove(track, { ply: 2, step: null })).toEqual({ ply: 1, step: null });
    expect(previousMove(track, { ply: 0, step: null })).toEqual({ ply: 0, step: null });
  });

  it('keeps a ply from the URL inside the game', () => {
    expect(clampPly(track, 7)).toBe(3);
    expect(clampPly(track, -2)).toBe(0);
    expect(clampPly(track, Number.NaN)).toBe(0);
  });
});
