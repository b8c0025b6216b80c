// Fits the win-chance curve of win-chance.ts: self-play games between
// players of levels 2 to 5 (drawn per seat and game, so that games look like
// those of people, who err: between two strong players the value's sign
// alone would predict the result and the curve would be a step), the
// engine's value at each ply from the mover's view, and the game's result
// for that mover (win 1, draw ½, loss 0). k maximises the likelihood of those results under
// 1 / (1 + e^(−k·value)); the log-likelihood is concave in k, so Newton's
// method finds it. Run: `pnpm --filter @oanquan/engine fit` (FIT_GAMES
// games, default 200; FIT_DEPTH for the evaluation, default 6).

import { DEFAULT_RULES, newGame, playFast } from '@oanquan/rules';
import { bestMove } from '../src/best-move.js';
import type { Level } from '../src/levels.js';
import { seededRandom } from '../src/random.js';

const GAMES = Number(process.env.FIT_GAMES ?? 200);
const DEPTH = Number(process.env.FIT_DEPTH ?? 6);

const samples: { value: number; result: number }[] = [];
const random = seededRandom(2026);
for (let game = 0; game < GAMES; game++) {
  const levels = [2 + Math.floor(4 * random()), 2 + Math.floor(4 * random())] as Level[];
  let state = newGame({ rules: DEFAULT_RULES, first: (game % 2) as 0 | 1 });
  const values: { value: number; mover: 0 | 1 }[] = [];
  while (state.position.status === 'playing') {
    values.push({ value: bestMove(state, { depth: DEPTH }).eval, mover: state.position.toMove });
    const next = playFast(state, bestMove(state, { level: levels[state.position.toMove]!, seed: 7919 * game + state.position.ply }).move);
    if (typeof next === 'string') throw new Error(next);
    state = next;
  }
  const winner = state.position.result!.winner;
  for (const { value, mover } of values) {
    samples.push({ value, result: winner === null ? 0.5 : winner === mover ? 1 : 0 });
  }
}

let k = 0.1;
for (let step = 0; step < 50; step++) {
  let gradient = 0;
  let curvature = 0;
  for (const { value, result } of samples) {
    const p = 1 / (1 + Math.exp(-k * value));
    gradient += (result - p) * value;
    curvature -= p * (1 - p) * value * value;
  }
  const next = k - gradient / curvature;
  if (Math.abs(next - k) < 1e-9) break;
  k = next;
}
let logLoss = 0;
for (const { value, result } of samples) {
  const p = Math.min(1 - 1e-12, Math.max(1e-12, 1 / (1 + Math.exp(-k * value))));
  logLoss -= result * Math.log(p) + (1 - result) * Math.log(1 - p);
}
console.log(`win chance: k = ${k.toFixed(4)} from ${samples.length} positions of ${GAMES} games (depth ${DEPTH}); mean log loss ${(logLoss / samples.length).toFixed(4)}`);
