import { describe, expect, it } from 'vitest';
import type { PlyAnalysis } from '@oanquan/protocol';
import { en } from '../i18n/en.js';
import { vi } from '../i18n/vi.js';
import { bestPlayVerdict, chanceCurve, keyMoments, percentOf } from './analysis-view.js';

function ply(n: number, winChance: number, chanceLost: number, label: PlyAnalysis['label'], pointsLost = 0, accuracy = 100 - 200 * chanceLost): PlyAnalysis {
  return {
    ply: n,
    seat: ((n + 1) % 2) as 0 | 1,
    eval: 0,
    winChance,
    best: { square: 1, dir: 1 },
    bestNotation: '1>',
    playedEval: 0,
    pointsLost,
    chanceLost,
    label,
    accuracy,
  };
}

const plies = [ply(1, 0.6, 0.05, 'good'), ply(2, 0.45, 0.3, 'blunder'), ply(3, 0.85, 0.2, 'mistake'), ply(4, 0.35, 0.1, 'inaccuracy')];

describe('the analysis as the page shows it', () => {
  it('draws the first mover’s chance before the game and after each move, the last one included', () => {
    const curve = chanceCurve(plies, 0);
    expect(curve).toHaveLength(5);
    [60, 55, 85, 65, 75].forEach((value, i) => expect(curve[i]).toBeCloseTo(value, 9));
    const other = chanceCurve(plies, 1);
    other.forEach((value, i) => expect(value).toBeCloseTo(100 - curve[i]!, 9));
    expect(chanceCurve([], 0)).toEqual([]);
  });

  it('lists the mistakes and blunders as key moments, the biggest first chosen, shown in the order played', () => {
    expect(keyMoments(plies).map((p) => p.ply)).toEqual([2, 3]);
    expect(keyMoments(plies, 1).map((p) => p.ply)).toEqual([2]);
  });

  it('chooses the key moments by what a move lost in points too: twelve points thrown away in a lost game before a close mistake', () => {
    const lostGame = [ply(1, 0.5, 0.22, 'mistake', 6, 35), ply(2, 0.01, 0.004, 'blunder', 12, 20), ply(3, 0.4, 0.01, 'good', 0.5, 95)];
    expect(keyMoments(lostGame, 1).map((p) => p.ply)).toEqual([2]);
    expect(keyMoments(lostGame).map((p) => p.ply)).toEqual([1, 2]);
  });

  it('never writes a loss as 0 %', () => {
    expect([0, 0.001, 0.126, 1].map(percentOf)).toEqual([0, 1, 13, 100]);
  });
});

describe('bestPlayVerdict', () => {
  const proved = (lower: number | null, upper: number | null) => ({ ...ply(1, 0.5, 0, 'best'), bestPlay: { lower, upper } });

  it('names an exact result, a proved win or loss with its least margin, or a side that cannot lose or win', () => {
    expect(bestPlayVerdict(proved(6, 6))).toEqual({ key: 'analysis.bestPlay.wins', points: 6 });
    expect(bestPlayVerdict(proved(-4, -4))).toEqual({ key: 'analysis.bestPlay.loses', points: 4 });
    expect(bestPlayVerdict(proved(0, 0))).toEqual({ key: 'analysis.bestPlay.draw', points: 0 });
    expect(bestPlayVerdict(proved(2, null))).toEqual({ key: 'analysis.bestPlay.winsAtLeast', points: 2 });
    expect(bestPlayVerdict(proved(null, -3))).toEqual({ key: 'analysis.bestPlay.losesAtLeast', points: 3 });
    expect(bestPlayVerdict(proved(0, 5))).toEqual({ key: 'analysis.bestPlay.notLosing', points: 0 });
    expect(bestPlayVerdict(proved(-5, 0))).toEqual({ key: 'analysis.bestPlay.notWinning', points: 0 });
  });

  it('says nothing without a proof that decides anything', () => {
    expect(bestPlayVerdict(ply(1, 0.5, 0, 'best'))).toBeNull();
    expect(bestPlayVerdict(proved(-5, 5))).toBeNull();
    expect(bestPlayVerdict(proved(null, null))).toBeNull();
  });

  it('reads "wins by 6 with best play" in both languages', () => {
    expect(en['analysis.bestPlay.wins'].replace('{name}', 'An').replace('{points}', '6')).toBe('With best play An wins by 6.');
    expect(vi['analysis.bestPlay.wins'].replace('{name}', 'An').replace('{points}', '6')).toBe('An thắng 6 với nước đi tốt nhất.');
  });
});
