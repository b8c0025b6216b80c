// Throughput of the rules on random games from the start position, on the
// built package with plain node, so the figures are those of production code.
// Every ply lists the legal moves and plays one at random under the full
// rules (repetition tracking included), alternating the two presets.

import { legalMoves, newGame, play, playFast, PRESETS } from '../dist/index.js';

const WARMUP_MS = 500;
const FAST_MS = 2000;
const EVENTS_MS = 1500;
const SETUPS = [
  { rules: PRESETS.classic, first: 0 },
  { rules: PRESETS.vietnam, first: 1 },
  { rules: PRESETS.classic, first: 1 },
  { rules: PRESETS.vietnam, first: 0 },
];

/** xorshift32: reproducible games from run to run. */
function random(seed) {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function gameWithoutEvents(setup, rand) {
  let state = newGame(setup);
  let plies = 0;
  while (state.position.status === 'playing') {
    const moves = legalMoves(state);
    const next = playFast(state, moves[(rand() * moves.length) | 0]);
    if (typeof next === 'string') throw new Error(next);
    state = next;
    plies++;
  }
  return plies;
}

function gameWithEvents(setup, rand) {
  let state = newGame(setup);
  let plies = 0;
  while (state.position.status === 'playing') {
    const moves = legalMoves(state);
    const result = play(state, moves[(rand() * moves.length) | 0]);
    if (!result.ok) throw new Error(result.code);
    state = result.state;
    plies++;
  }
  return plies;
}

function measure(playGame, budgetMs, seed) {
  const rand = random(seed);
  let plies = 0;
  let games = 0;
  const start = process.hrtime.bigint();
  let elapsedNs = 0;
  while (elapsedNs < budgetMs * 1e6) {
    for (let i = 0; i < 64; i++) plies += playGame(SETUPS[games++ & 3], rand);
    elapsedNs = Number(process.hrtime.bigint() - start);
  }
  return { plies, games, seconds: elapsedNs / 1e9 };
}

const format = (n) => Math.round(n).toLocaleString('en-US');

measure(gameWithoutEvents, WARMUP_MS, 1);
measure(gameWithEvents, WARMUP_MS, 2);

const fast = measure(gameWithoutEvents, FAST_MS, 3);
const pliesPerSecond = fast.plies / fast.seconds;
console.log(
  `play (no events): ${format(pliesPerSecond)} plies/s, ${format(fast.games / fast.seconds)} games/s ` +
    `(${(fast.plies / fast.games).toFixed(1)} plies/game, ${fast.games} games in ${fast.seconds.toFixed(2)} s)`,
);

const full = measure(gameWithEvents, EVENTS_MS, 4);
const nsPerPly = (full.seconds * 1e9) / full.plies;
console.log(
  `play with events: ${nsPerPly.toFixed(0)} ns/ply (${format(full.plies / full.seconds)} plies/s, ` +
    `${format(full.games / full.seconds)} games/s; events add ${(nsPerPly - 1e9 / pliesPerSecond).toFixed(0)} ns/ply)`,
);
