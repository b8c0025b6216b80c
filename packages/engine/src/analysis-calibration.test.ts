// The labels mean what a player expects when most moves of a game between
// uneven players are not blunders. Games of weak levels (1–4) against
// stronger ones (5–6), the kind of game people of middling strength play,
// analysed at the server's default depth: the share of each label is
// printed and bounded.

import { newGame, play, type Move } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { analyse, LABEL_THRESHOLDS, type MoveLabel } from './analysis.js';
import { bestMove } from './best-move.js';
import type { Level } from './levels.js';

const PAIRS: readonly (readonly [Level, Level])[] = [
  [1, 5],
  [2, 5],
  [3, 5],
  [4, 6],
];
const GAMES_PER_SIDE = 2;
const DEPTH = 8;

function playGame(levels: readonly [Level, Level], seed: number): Move[] {
  let state = newGame({ first: 0 });
  const moves: Move[] = [];
  while (state.position.status === 'playing') {
    const move = bestMove(state, { level: levels[state.position.toMove], seed: seed * 7919 + moves.length }).move;
    const next = play(state, move);
    if (!next.ok) throw new Error(next.code);
    moves.push(move);
    state = next.state;
  }
  return moves;
}

describe('the labels over games between uneven players', () => {
  it('call few moves blunders, and far fewer than a rule of ten points lost would', { timeout: 300_000 }, () => {
    const labels: MoveLabel[] = [];
    let tenPoints = 0;
    let seed = 0;
    for (const [weak, strong] of PAIRS) {
      for (const levels of [
        [weak, strong],
        [strong, weak],
      ] as const) {
        for (let g = 0; g < GAMES_PER_SIDE; g++) {
          const result = analyse({ moves: playGame(levels, seed++) }, { depth: DEPTH });
          if (!result.ok) throw new Error(result.error.code);
          for (const ply of result.analysis.plies) {
            labels.push(ply.label);
            if (ply.pointsLost >= 10) tenPoints++;
          }
        }
      }
    }
    const share = (label: MoveLabel) => labels.filter((l) => l === label).length / labels.length;
    const shares = Object.fromEntries((['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const).map((l) => [l, Math.round(1000 * share(l)) / 10]));
    console.log(`labels over ${labels.length} moves (%):`, shares, `; 10+ points lost: ${Math.round((1000 * tenPoints) / labels.length) / 10} %`);

    expect(labels.length).toBeGreaterThan(200);
    expect(share('blunder')).toBeLessThan(0.15);
    expect(share('blunder') + share('mistake') + share('inaccuracy')).toBeLessThan(0.4);
    expect(share('best') + share('good')).toBeGreaterThan(0.6);
    // Some moves of weak levels are still called blunders: the labels are not all silence.
    expect(share('blunder')).toBeGreaterThan(0);
    expect(share('blunder')).toBeLessThan((0.75 * tenPoints) / labels.length);
    expect(LABEL_THRESHOLDS.blunder).toBe(0.3);
  });
});
