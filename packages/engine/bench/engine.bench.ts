// The engine's figures: search speed, a round robin of the levels and two
// fixed players with a rating for each, the level ladder, level 8 against a
// plain depth-6 alpha-beta on the score difference, the first mover's
// advantage, and level 8's move times. Game counts come from the
// environment so that a short run is possible:
//   BENCH_LADDER_ROUNDS     rounds per ladder pair (default 2)
//   BENCH_LADDER_LEVELS     the upper levels of the ladder pairs to play, as "4,5" (default all)
//   BENCH_BASELINE_ROUNDS   rounds of level 8 against depth 6 (default 10)
//   BENCH_FIRST_MOVE_GAMES  self-play games for the first-move advantage (default 200)
//   BENCH_GREEDY_PAIRS      balanced openings of level 8 and of level 1 against the greedy player (default 50: 100 games each)
//   BENCH_GREEDY_FORCED_PAIRS  forced openings of match.ts of level 8 against the greedy player (default 50: 100 games)
//   BENCH_ROBIN_PAIRS       openings per pair in the round robin of the levels and baselines (default 2; 5 for the ratings in levels.ts)
//   BENCH_ROBIN_GAP         1 to play the round robin under emptyQuanIsGap too
//   BENCH_BALANCE_GAMES     self-play games per preset at level 8 in the balance table (default 16; levels 4 and 6 play four times as many)
//   BENCH_ENDGAME_GAMES     self-play games per level (6, 7, 8) for the exact endgames' coverage (default 4)
//   BENCH_ENDGAME_PAIRS     openings of level 8 with the endgame solver against level 8 without it (default 0)
// A round is the ten opening moves, each played from both seats: 20 games.
// Runs on one core; on a shared machine run it with `nice`.

import { DEFAULT_RULES, newGame, playFast, resolveRules, type State } from '@oanquan/rules';
import { bestMove } from '../src/best-move.js';
import { SCORE_ONLY } from '../src/evaluation.js';
import { LEVELS, LEVEL_SETTINGS, type Level } from '../src/levels.js';
import { greedyMove } from '../src/testing/greedy.js';
import { printBalance } from './balance.js';
import { DEEP_NODES, balancedOpenings } from './balanced-openings.js';
import { printEndgameCoverage, printEndgameMatch } from './endgame.js';
import { enginePlayer, pairedMatch, playGame, type MatchScore } from './match.js';
import { ENTRANTS, roundRobin } from './round-robin.js';

const count = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
};

const LADDER_ROUNDS = count('BENCH_LADDER_ROUNDS', 2);
const BASELINE_ROUNDS = count('BENCH_BASELINE_ROUNDS', 10);
const FIRST_MOVE_GAMES = count('BENCH_FIRST_MOVE_GAMES', 200);
const ROBIN_PAIRS = count('BENCH_ROBIN_PAIRS', 2);
const GREEDY_PAIRS = count('BENCH_GREEDY_PAIRS', 50);
const GREEDY_FORCED_PAIRS = count('BENCH_GREEDY_FORCED_PAIRS', 50);
const BALANCE_GAMES = count('BENCH_BALANCE_GAMES', 16);
const ENDGAME_GAMES = count('BENCH_ENDGAME_GAMES', 4);
const ENDGAME_PAIRS = count('BENCH_ENDGAME_PAIRS', 0);
const ROBIN_RULES = [
  ['classic rules', DEFAULT_RULES],
  ...(process.env.BENCH_ROBIN_GAP === '1' ? [['emptyQuanIsGap', resolveRules({ emptyQuanIsGap: true })] as const] : []),
] as const;
const LADDER_LEVELS = (process.env.BENCH_LADDER_LEVELS ?? '2,3,4,5,6,7,8').split(',').map(Number);

const percent = (x: number) => `${(100 * x).toFixed(1)} %`;
const describe = (s: MatchScore) =>
  `${percent(s.score)} over ${s.games} games (+${s.wins} =${s.draws} −${s.losses}, mean margin ${s.meanMargin.toFixed(1)})`;

function nodesPerSecond(): void {
  // The start and the positions of a short game between two level-5 players.
  const positions: State[] = [];
  let state = newGame();
  for (let i = 0; i < 30 && state.position.status === 'playing'; i++) {
    positions.push(state);
    const next = playFast(state, bestMove(state, { level: 5, seed: i }).move);
    if (typeof next === 'string') throw new Error(next);
    state = next;
  }
  for (const s of positions.slice(0, 5)) bestMove(s, { depth: 8 });
  let nodes = 0;
  const started = performance.now();
  for (const s of positions) nodes += bestMove(s, { depth: 10 }).nodes;
  const seconds = (performance.now() - started) / 1000;
  console.log(`search: ${Math.round(nodes / seconds).toLocaleString('en-US')} nodes/s (depth 10 on ${positions.length} positions, ${nodes.toLocaleString('en-US')} nodes in ${seconds.toFixed(1)} s)`);
}

function ladder(): void {
  if (LADDER_ROUNDS === 0) return;
  console.log('level ladder (each level against the one below, paired openings):');
  for (const level of LEVELS.slice(1).filter((l) => LADDER_LEVELS.includes(l))) {
    const below = (level - 1) as Level;
    const score = pairedMatch(DEFAULT_RULES, enginePlayer({ level }), enginePlayer({ level: below }), 10 * LADDER_ROUNDS, level);
    console.log(`  level ${level} vs ${below}: ${describe(score)}`);
  }
}

/**
 * The ends of the ladder: greedy beats level 1 most of the time, and level 8
 * never loses to greedy. Both play the balanced openings (balanced-openings.ts:
 * two to four forced plies that a search of a million nodes values within
 * half a point of even), each from both seats, so a loss is the level's own
 * and not the opening's. Level 8 also plays the forced openings of match.ts
 * (BENCH_GREEDY_FORCED_PAIRS), where past the tenth most leave one seat
 * lost with best play (12 to 40 points in 33 of openings 10–49): there the
 * measure is the openings where it did worse than greedy over both seats.
 */
function greedyEnds(): void {
  const greedy = (state: State) => greedyMove(state);
  if (GREEDY_PAIRS > 0) {
    const openings = balancedOpenings();
    if (openings.length < GREEDY_PAIRS) throw new Error(`only ${openings.length} balanced openings; BENCH_GREEDY_PAIRS is ${GREEDY_PAIRS}`);
    const used = openings.slice(0, GREEDY_PAIRS);
    const values = used.map((o) => o.value);
    console.log(
      `balanced openings: ${used.length}, 2–${Math.max(...used.map((o) => o.moves.length))} forced plies, ` +
        `deep values (${DEEP_NODES.toLocaleString('en-US')} nodes, first mover's view) ${Math.min(...values).toFixed(1)} to ${Math.max(...values).toFixed(1)} points`,
    );
    for (const level of [8, 1] as const) {
      const started = performance.now();
      const score = pairedMatch(DEFAULT_RULES, enginePlayer({ level }), greedy, GREEDY_PAIRS, 31 * level, undefined, (i) => used[i]!.moves);
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `level ${level} vs the greedy player on balanced openings: ${score.wins}-${score.draws}-${score.losses} (W-D-L) over ${score.games} games, ` +
          `${describe(score)}; ${seconds.toFixed(0)} s`,
      );
      // The deep value of a lost game's opening from the loser's seat: below zero, the seat was lost with best play.
      if (level === 8) {
        let fromEven = 0;
        for (const game of score.lost) {
          const value = used[game.opening]!.value * (game.seat === 0 ? 1 : -1);
          if (value >= 0) fromEven++;
          console.log(`  lost opening ${game.opening} from seat ${game.seat} by ${-game.margin}; its deep value for that seat ${value.toFixed(1)}`);
        }
        console.log(`  level 8's losses from a seat the deep search values at 0 or better: ${fromEven}`);
      }
    }
  }
  if (GREEDY_FORCED_PAIRS > 0) {
    const score = pairedMatch(DEFAULT_RULES, enginePlayer({ level: 8 }), greedy, GREEDY_FORCED_PAIRS, 31 * 8);
    console.log(
      `level 8 vs the greedy player on forced openings (${GREEDY_FORCED_PAIRS} from both seats): ${describe(score)}; ` +
        `behind the greedy player over both seats of ${score.openingsBehind} of ${GREEDY_FORCED_PAIRS} openings`,
    );
  }
}

function baseline(): void {
  if (BASELINE_ROUNDS === 0) return;
  const times: number[] = [];
  const score = pairedMatch(
    DEFAULT_RULES,
    enginePlayer({ level: 8 }),
    enginePlayer({ depth: 6, weights: SCORE_ONLY }),
    10 * BASELINE_ROUNDS,
    100,
    (_state, _move, ms, player) => {
      if (player === 'a') times.push(ms);
    },
  );
  console.log(`level 8 (${LEVEL_SETTINGS[8].nodes!.toLocaleString('en-US')} nodes) vs depth-6 alpha-beta on score difference: ${describe(score)}`);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0);
  console.log(`level 8 move time: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms (${times.length} moves)`);
}

function firstMove(): void {
  if (FIRST_MOVE_GAMES === 0) return;
  // Level 5 against itself from the start: its softmax varies the games
  // (levels 6 and up are deterministic, and would play one game over).
  const player = enginePlayer({ level: 5 });
  let wins = 0;
  let draws = 0;
  let marginSum = 0;
  for (let i = 0; i < FIRST_MOVE_GAMES; i++) {
    const game = playGame(DEFAULT_RULES, [], [player, player], 7919 * i);
    marginSum += game.margin;
    if (game.margin > 0) wins++;
    else if (game.margin === 0) draws++;
  }
  const losses = FIRST_MOVE_GAMES - wins - draws;
  console.log(
    `first-move advantage (level 5 self-play, classic rules): the first mover scores ${percent((wins + draws / 2) / FIRST_MOVE_GAMES)} ` +
      `(+${wins} =${draws} −${losses} of ${FIRST_MOVE_GAMES}), mean margin ${(marginSum / FIRST_MOVE_GAMES).toFixed(1)} points`,
  );
}

function balance(): void {
  if (BALANCE_GAMES === 0) return;
  printBalance([4, 6, 8], (level) => (level === 8 ? BALANCE_GAMES : 4 * BALANCE_GAMES));
}

function robin(): void {
  if (ROBIN_PAIRS === 0) return;
  for (const [label, rules] of ROBIN_RULES) {
    const result = roundRobin(rules, ENTRANTS, ROBIN_PAIRS);
    const games = 2 * ROBIN_PAIRS;
    console.log(`round robin, ${label} (${games} games a pair, paired openings): Elo-like rating (random play at 0), then points against each column`);
    console.log(`  ${''.padEnd(8)} ${'rating'.padStart(6)}   ${result.names.map((name) => name.replace('level ', 'L').slice(0, 4).padStart(4)).join(' ')}`);
    result.names.forEach((name, i) => {
      const row = result.names.map((_, j) => (i === j ? '   -' : result.points[i]![j]!.toFixed(1).padStart(4))).join(' ');
      console.log(`  ${name.padEnd(8)} ${result.ratings[i]!.toFixed(0).padStart(6)}   ${row}`);
    });
  }
}

nodesPerSecond();
printEndgameCoverage(ENDGAME_GAMES);
printEndgameMatch(ENDGAME_PAIRS);
robin();
firstMove();
balance();
ladder();
greedyEnds();
baseline();
