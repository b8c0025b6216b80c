import { newGame, play, startPosition, stateFromPosition, type Move, type Position } from '@oanquan/rules';
import { bestMove } from '../best-move.js';
import { describe, expect, it } from 'vitest';
import { POINT_GAP, WIN_GAP, clearBest, findPuzzle, initialPuzzleRating, playLine } from './find-puzzle.js';
import { gamePuzzles, pliesWorthALook } from './game-puzzles.js';
import { selfPlayPuzzles } from './self-play.js';

/** rules.md E4: square 3 toward the right captures square 6 (quan + 4), then 8 and 10 in a chain. */
const E4: Position = {
  ...startPosition(0),
  squares: [2, 0, 0, 1, 0, 0, 4, 0, 3, 0, 2, 1],
  captured: [
    { dan: 19, quan: 0 },
    { dan: 18, quan: 0 },
  ],
};

describe('clearBest', () => {
  it('singles out a win that every other move throws away', () => {
    expect(clearBest(new Map([[0, WIN_GAP], [1, 0], [2, -8]]))).toMatchObject({ move: 0, winning: true, gap: WIN_GAP });
  });

  it('singles out a move far ahead of the rest without a change of result', () => {
    expect(clearBest(new Map([[0, 30], [1, 30 - POINT_GAP]]))).toMatchObject({ move: 0, winning: false });
  });

  it('rejects two wins, a small gap and a lone move', () => {
    expect(clearBest(new Map([[0, 12], [1, 6]]))).toBeNull();
    expect(clearBest(new Map([[0, 2], [1, -1]]))).toBeNull();
    expect(clearBest(new Map([[0, 40]]))).toBeNull();
  });
});

describe('findPuzzle', () => {
  it('finds the chain capture of E4 and verifies it, with a legal line ending on the solver’s move', () => {
    const puzzle = findPuzzle(stateFromPosition(E4));
    expect(puzzle).not.toBeNull();
    expect(puzzle!.line[0]).toEqual({ square: 3, dir: 1 });
    expect(puzzle!.line.length % 2).toBe(1);
    expect(puzzle!.winning).toBe(true);
    expect(puzzle!.themes).toEqual(expect.arrayContaining(['capture-chain', 'quan']));
    expect(() => playLine(stateFromPosition(E4), puzzle!.line)).not.toThrow();
    expect(initialPuzzleRating(puzzle!)).toBeGreaterThan(0);
  });

  it('finds no puzzle in the start position, where no move stands out', () => {
    expect(findPuzzle(newGame())).toBeNull();
  });

  it('drops a screened candidate that the deeper search does not confirm', () => {
    // Self-play candidates at a shallow screen are many; verification at depth 1 against depth 9 keeps a subset.
    const screenedOnly = selfPlayPuzzles({ seed: 7, screenDepth: 1, verifyDepth: 1, perGame: 50, spacing: 1 });
    const verified = selfPlayPuzzles({ seed: 7, screenDepth: 1, verifyDepth: 9, perGame: 50, spacing: 1 });
    const key = (p: { position: Position }) => JSON.stringify(p.position);
    const kept = new Set(screenedOnly.map(key));
    expect(verified.length).toBeLessThan(screenedOnly.length);
    for (const puzzle of verified) expect(kept.has(key(puzzle))).toBe(true);
  });
});

describe('selfPlayPuzzles', () => {
  it('gives the same puzzles for the same seed', () => {
    expect(selfPlayPuzzles({ seed: 3 })).toEqual(selfPlayPuzzles({ seed: 3 }));
  });
});

describe('gamePuzzles', () => {
  /** A game between two low levels, to its end. */
  function lowLevelGame(): Move[] {
    let state = newGame();
    const moves: Move[] = [];
    while (state.position.status === 'playing') {
      const move = bestMove(state, { level: 3, seed: moves.length }).move;
      moves.push(move);
      const next = play(state, move);
      if (!next.ok) throw new Error(next.code);
      state = next.state;
    }
    return moves;
  }

  it('finds a played game’s puzzles, only at the plies asked for', () => {
    const moves = lowLevelGame();
    const all = gamePuzzles({ moves }, { perGame: 100 });
    expect(all.length).toBeGreaterThan(0);
    const ply = all[0]!.position.ply;
    expect(gamePuzzles({ moves }, { plies: [], perGame: 100 })).toEqual([]);
    expect(gamePuzzles({ moves }, { plies: [ply], perGame: 100 })).toEqual([all[0]]);
  });

  it('looks at each mistake and blunder and the ply after it', () => {
    expect(pliesWorthALook([{ ply: 4, label: 'blunder' }, { ply: 9, label: 'good' }, { ply: 12, label: 'mistake' }])).toEqual([4, 5, 12, 13]);
  });
});
