// R4.5: the repetition history on its own.

import { describe, expect, it } from 'vitest';
import { RepetitionHistory } from './repetition.js';

const board = (n: number) => [n % 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, (n >> 3) % 50, 0];

describe('RepetitionHistory', () => {
  it('counts each state, the first included', () => {
    const start = RepetitionHistory.start(board(0), 0, 0, 0);
    expect(start.count).toBe(1);
    const second = start.extend(board(1), 0, 0, 1).extend(board(0), 0, 0, 0);
    expect(second.count).toBe(2);
    expect(second.length).toBe(3);
    expect(second.extend(board(1), 0, 0, 1).extend(board(0), 0, 0, 0).count).toBe(3);
  });

  it('tells states apart by every square, both stocks and the mover', () => {
    const squares = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const start = RepetitionHistory.start(squares, 3, 4, 0);
    for (let i = 0; i < 11; i++) {
      const other = squares.slice();
      other[i]! += 1;
      other[11]! -= 1;
      expect(start.extend([9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9], 0, 0, 1).extend(other, 3, 4, 0).count).toBe(1);
    }
    const via = start.extend(squares, 3, 4, 1);
    expect(via.count).toBe(1);
    expect(via.extend(squares, 4, 3, 0).count).toBe(1);
    expect(via.extend(squares, 3, 4, 0).count).toBe(2);
  });

  it('stays exact in a long line, past the switch from scanning to hashing', () => {
    let history = RepetitionHistory.start(board(0), 0, 0, 0);
    const seen = new Map<string, number>([[JSON.stringify([board(0), 0, 0]), 1]]);
    for (let i = 1; i < 2000; i++) {
      const mover = i % 2;
      const key = (i * 7919) % 300;
      const squares = board(key);
      history = history.extend(squares, key % 5, 0, mover);
      const name = JSON.stringify([squares, key % 5, mover]);
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      expect(history.count).toBe(count);
    }
    expect(history.length).toBe(2000);
  });

  it('is immutable: extending an earlier history starts a branch of its own', () => {
    const start = RepetitionHistory.start(board(0), 0, 0, 0);
    const a = start.extend(board(1), 0, 0, 1);
    const a2 = a.extend(board(0), 0, 0, 0);
    expect(a2.count).toBe(2);
    // From `start` again along another line: the line through `a` does not count.
    const b = start.extend(board(2), 0, 0, 1);
    expect(b.extend(board(0), 0, 0, 0).count).toBe(2);
    expect(b.extend(board(1), 0, 0, 1).count).toBe(1);
    // And the first line is unaffected by the branch.
    expect(a2.extend(board(1), 0, 0, 1).count).toBe(2);
    expect(a.extend(board(0), 0, 0, 0).count).toBe(2);
  });

  it('lists the states it holds, oldest first, square 11 rebuilt from the dân in play', () => {
    const a = [2, 1, 0, 3, 0, 0, 4, 0, 1, 0, 2, 5];
    const b = [2, 0, 1, 3, 0, 0, 4, 0, 1, 0, 2, 5];
    const history = RepetitionHistory.start(a, 10, 22, 0).extend(b, 10, 22, 1).extend(a, 10, 22, 0);
    const total = 18 + 10 + 22;
    expect(history.states(total)).toEqual([
      { squares: a, dan0: 10, dan1: 22, mover: 0 },
      { squares: b, dan0: 10, dan1: 22, mover: 1 },
      { squares: a, dan0: 10, dan1: 22, mover: 0 },
    ]);
    // A branch from an earlier history lists its own states only.
    expect(history.states(total).length).toBe(3);
    expect(RepetitionHistory.start(a, 10, 22, 0).extend(a, 10, 22, 1).states(total)).toHaveLength(2);
  });
});
