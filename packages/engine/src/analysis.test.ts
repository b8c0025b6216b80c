// Post-game analysis on short games with a known blunder: after 2< 3< (ring
// squares 2 and 9), player 0's 4> lets the opponent capture 8 or 9 dân at
// once and, by a six-ply search, loses ten points or more.

import { formatMove, legalMoves, newGame, play, type Move } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { accuracyOf, analyse } from './analysis.js';
import { bestMove } from './best-move.js';
import { chanceLost, judgeMove } from './move-judgement.js';
import { winChance } from './win-chance.js';

const OPENING: Move[] = [
  { square: 2, dir: -1 },
  { square: 9, dir: -1 },
];
const BLUNDER: Move = { square: 4, dir: 1 };

describe('analyse', () => {
  it('analysed in slices, gives the plies and accuracies of one whole analysis', () => {
    const moves = [...OPENING, BLUNDER, { square: 7, dir: 1 } as Move];
    const whole = analyse({ moves }, { depth: 4 });
    const head = analyse({ moves: moves.slice(0, 2) }, { depth: 4 });
    const tail = analyse({ moves }, { depth: 4, fromPly: 2 });
    if (!whole.ok || !head.ok || !tail.ok) throw new Error('illegal');
    expect(tail.analysis.plies.map((p) => p.ply)).toEqual([2, 3]);
    const joined = [...head.analysis.plies, ...tail.analysis.plies];
    expect(joined.map((p) => p.label)).toEqual(whole.analysis.plies.map((p) => p.label));
    expect(accuracyOf(joined)).toEqual(whole.analysis.accuracy);
  });

  it('labels a blunder that gives away a quan piece, and the best move as best', () => {
    const blundered = analyse({ moves: [...OPENING, BLUNDER] }, { depth: 6 });
    if (!blundered.ok) throw new Error(blundered.error.code);
    const ply = blundered.analysis.plies[2]!;
    expect(ply.player).toBe(0);
    expect(ply.move).toEqual(BLUNDER);
    expect(ply.label).toBe('blunder');
    expect(ply.pointsLost).toBeGreaterThanOrEqual(10);
    expect(ply.best).not.toEqual(BLUNDER);
    expect(ply.eval - ply.playedEval).toBe(ply.pointsLost);
    expect(ply.winChance).toBeCloseTo(winChance(ply.eval), 12);
    expect(ply.accuracy).toBeLessThan(50);

    // The same game with the engine's move there instead.
    const good = analyse({ moves: [...OPENING, ply.best] }, { depth: 6 });
    if (!good.ok) throw new Error(good.error.code);
    const instead = good.analysis.plies[2]!;
    expect(instead.label).toBe('best');
    expect(instead.pointsLost).toBe(0);
    expect(instead.accuracy).toBeCloseTo(100, 0);
    expect(good.analysis.accuracy[0]!).toBeGreaterThan(blundered.analysis.accuracy[0]!);
  });

  it('gives every ply of a played game its mover, value and label, and each player an accuracy', () => {
    let state = newGame({ rules: { quanNon: 5, emptyQuanIsGap: true }, first: 1 });
    const moves: Move[] = [];
    for (let i = 0; i < 12 && state.position.status === 'playing'; i++) {
      const move = bestMove(state, { level: 2, seed: i }).move;
      moves.push(move);
      const next = play(state, move);
      if (!next.ok) throw new Error(next.code);
      state = next.state;
    }
    const result = analyse({ rules: state.rules, first: 1, moves }, { depth: 4 });
    if (!result.ok) throw new Error(result.error.code);
    const { plies, accuracy } = result.analysis;
    expect(plies.map((p) => p.player)).toEqual(moves.map((_, i) => ((i + 1) % 2) as 0 | 1));
    expect(plies.map((p) => formatMove(p.move, p.player))).toEqual(moves.map((m, i) => formatMove(m, ((i + 1) % 2) as 0 | 1)));
    for (const p of plies) {
      expect(p.pointsLost).toBeGreaterThanOrEqual(0);
      if (p.move.square === p.best.square && p.move.dir === p.best.dir) expect(p.label).toBe('best');
      else expect(p.label).toBe(judgeMove(p.chanceLost, p.pointsLost).label);
      expect(p.chanceLost).toBeCloseTo(chanceLost(p.eval, p.playedEval), 12);
      expect(p.pv[0]).toEqual(p.best);
    }
    for (const a of accuracy) {
      expect(a).toBeGreaterThanOrEqual(0);
      expect(a).toBeLessThanOrEqual(100);
    }
  });

  it('reports an illegal move with its ply and code instead of throwing', () => {
    const legal = legalMoves(newGame())[0]!;
    expect(analyse({ moves: [legal, { square: 2, dir: 1 }] })).toEqual({
      ok: false,
      error: { ply: 1, code: 'ERR_NOT_YOUR_SQUARE' },
    });
  });
});
