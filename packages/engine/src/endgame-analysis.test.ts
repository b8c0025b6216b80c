// The analysis of a finished game within the endgame limit: what the solver
// proves is reported as bounds with best play, and a move from a proved win
// to a proved draw or loss is marked. The game is a level-6 self-play game
// (opening 7, seed 527, bench/match.ts) up to ply 20, where player 0 can
// win by at least 4, then a move that leaves the win to player 1.

import { newGame, play, type Move } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { analyse } from './analysis.js';

const m = (square: number, dir: 1 | -1): Move => ({ square, dir }) as Move;
const PREFIX: Move[] = [
  m(4, -1), m(9, 1), m(2, 1), m(11, 1), m(3, -1), m(8, 1), m(2, 1), m(10, -1), m(2, -1),
  m(7, -1), m(2, -1), m(9, -1), m(1, -1), m(10, -1), m(4, 1), m(7, 1), m(3, 1), m(8, 1),
  m(4, -1), m(10, 1),
];
const THROW = m(3, 1);

describe('analysis of exact endgames', () => {
  it('says what best play proves and marks the move that throws the win away', () => {
    const result = analyse({ moves: [...PREFIX, THROW] }, { depth: 4, fromPly: 20, exactNodes: 20_000 });
    if (!result.ok) throw new Error(result.error.code);
    const [ply] = result.analysis.plies;
    expect(ply!.ply).toBe(20);
    expect(ply!.bestPlay).not.toBeNull();
    expect(ply!.bestPlay!.lower).toBeGreaterThanOrEqual(4);
    expect(ply!.eval).toBeGreaterThanOrEqual(ply!.bestPlay!.lower!);
    expect(ply!.throwsWin).toBe(true);
    expect(ply!.playedEval).toBeLessThanOrEqual(0);
    expect(ply!.best).not.toEqual(THROW);
    expect(ply!.label).toBe('blunder');
  });

  it('marks nothing where no proof was asked for or none was found', () => {
    const off = analyse({ moves: [...PREFIX, THROW] }, { depth: 4, fromPly: 20, exactNodes: 0 });
    if (!off.ok) throw new Error(off.error.code);
    expect(off.analysis.plies[0]!.bestPlay).toBeNull();
    expect(off.analysis.plies[0]!.throwsWin).toBe(false);
    // The opening: far beyond the limit.
    const start = analyse({ moves: PREFIX.slice(0, 2) }, { depth: 2 });
    if (!start.ok) throw new Error(start.error.code);
    expect(start.analysis.plies.every((p) => p.bestPlay === null && !p.throwsWin)).toBe(true);
  });

  it('keeps the game legal: the prefix is the self-play game it claims to be', () => {
    let state = newGame();
    for (const move of [...PREFIX, THROW]) {
      const next = play(state, move);
      expect(next.ok).toBe(true);
      if (next.ok) state = next.state;
    }
  });
});
