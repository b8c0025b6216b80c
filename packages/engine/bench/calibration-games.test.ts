// The judgement finds the points a weak player throws away against level 8,
// where the win chance alone, near zero after a few moves, found little,
// and finds few flaws in level 8's games against itself. Play and analysis
// are budgeted in depth and nodes, so the figures are the same on any machine.

import { describe, expect, it } from 'vitest';
import { calibrationGame, mistakes, PAIRINGS, type CalibrationGame } from './calibration-games.js';

const GAMES = 4;
const DEPTH = 8;

function games(name: string): CalibrationGame[] {
  const index = PAIRINGS.findIndex((p) => p.name === name);
  return Array.from({ length: GAMES }, (_, g) => calibrationGame(index, PAIRINGS[index]!, g, DEPTH));
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('the analysis over games against level 8', () => {
  it('finds mistakes in every lost game of random play and levels 1–2, and few in level 8 against itself', { timeout: 300_000 }, () => {
    const weak = ['random', 'level 1', 'level 2'].flatMap(games);
    const lost = weak.filter((g) => g.score[0] < g.score[1]);
    expect(lost.length).toBeGreaterThan(weak.length / 2);
    for (const game of lost) expect(mistakes(game.weak), `${game.pairing}, ${game.score.join('–')}`).toBeGreaterThanOrEqual(1);
    expect(mean(weak.map((g) => mistakes(g.weak)))).toBeGreaterThanOrEqual(2);
    expect(mean(weak.map((g) => g.weak.accuracy))).toBeLessThan(65);
    // Judged by the win chance alone, the same games found fewer mistakes and a higher accuracy.
    expect(mean(weak.map((g) => g.weak.chanceFlaws[1] + g.weak.chanceFlaws[2]))).toBeLessThan(mean(weak.map((g) => mistakes(g.weak))));
    expect(mean(weak.map((g) => g.weak.chanceAccuracy))).toBeGreaterThan(mean(weak.map((g) => g.weak.accuracy)) + 10);

    const even = games('level 8').flatMap((g) => [g.weak, g.strong]);
    expect(mean(even.map(mistakes))).toBeLessThan(1.5);
    expect(mean(even.map((s) => s.accuracy))).toBeGreaterThan(80);
  });
});
