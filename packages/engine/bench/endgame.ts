// Exact endgames in real play: self-play games at levels 6, 7 and 8 from
// the ten openings, then, for every position with few dân on the board, a
// solve within the budget the engine uses in play. Prints, per count of dân
// on the board, how many positions there are, how many the solver proves and
// the CPU time a proof takes; the limit (the most dân at which at least nine
// positions in ten are proved exactly, every smaller count included); the
// share of all positions within the engine's limit; and how many of each
// game's last plies have a proved outcome.

import { DEFAULT_RULES, type State } from '@oanquan/rules';
import { ENDGAME_LIMIT, ENDGAME_NODES } from '../src/endgame.js';
import { EndgameSolver } from '../src/endgame-solver.js';
import { boardDan, exactNodeOf } from '../src/exact-node.js';
import type { Level } from '../src/levels.js';
import { enginePlayer, opening, pairedMatch, playGame } from './match.js';
import { newGame, play } from '@oanquan/rules';

/** Counts of dân scanned: well above any limit the budget allows. */
const SCAN = 16;

function gameStates(level: Level, index: number): State[] {
  const player = enginePlayer({ level });
  const game = playGame(DEFAULT_RULES, opening(index), [player, player], 104_729 * index + level);
  const states: State[] = [];
  let state = newGame({ rules: DEFAULT_RULES, first: 0 });
  for (const move of game.moves) {
    states.push(state);
    const next = play(state, move);
    if (!next.ok) throw new Error(next.code);
    state = next.state;
  }
  return states;
}

function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

export function printEndgameCoverage(gamesPerLevel: number, nodes = ENDGAME_NODES): void {
  if (gamesPerLevel === 0) return;
  const byDan = Array.from({ length: SCAN + 1 }, () => ({ positions: 0, proved: 0, decided: 0, ms: [] as number[], decidedMs: [] as number[], failedMs: [] as number[] }));
  let positions = 0;
  let games = 0;
  const trailing: number[] = [];
  for (const level of [6, 7, 8] as const) {
    for (let i = 0; i < gamesPerLevel; i++) {
      const states = gameStates(level, i);
      games++;
      positions += states.length;
      let tail = 0;
      let unbroken = true;
      for (let k = states.length - 1; k >= 0; k--) {
        const state = states[k]!;
        const dan = boardDan(exactNodeOf(state));
        if (dan > SCAN) {
          unbroken = false;
          continue;
        }
        const row = byDan[dan]!;
        row.positions++;
        let proved = false;
        let decided = false;
        const ms = cpuMs(() => {
          const { lower, upper } = new EndgameSolver(state).bounds({ nodes, deadline: Infinity });
          proved = lower !== null && lower === upper;
          decided = (lower !== null && lower >= 1) || (upper !== null && upper <= -1) || (lower === 0 && upper === 0);
        });
        if (decided) {
          row.decided++;
          row.decidedMs.push(ms);
        }
        if (proved) {
          row.proved++;
          row.ms.push(ms);
        }
        if (decided && dan <= ENDGAME_LIMIT) {
          if (unbroken) tail++;
        } else {
          unbroken = false;
        }
        if (!proved && !decided) row.failedMs.push(ms);
      }
      trailing.push(tail);
    }
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const quantile = (xs: number[], q: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted.length === 0 ? '-' : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  };
  console.log(`exact endgames: ${games} self-play games (levels 6, 7, 8 × ${gamesPerLevel}, classic rules), ${positions} positions, solver budget ${nodes.toLocaleString('en-US')} nodes`);
  console.log('  dân on board  positions  share of all  exact margin   win/draw/loss  CPU ms of an exact proof p50/p90/max  CPU ms of a failed try p50');
  let limit = -1;
  let stillWithin = true;
  for (let dan = 0; dan <= SCAN; dan++) {
    const row = byDan[dan]!;
    if (row.positions === 0) continue;
    const share = row.proved / row.positions;
    if (stillWithin && share >= 0.9) limit = dan;
    else stillWithin = false;
    console.log(
      `  ${String(dan).padStart(12)}  ${String(row.positions).padStart(9)}  ${pct(row.positions / positions).padStart(12)}  ${`${row.proved} (${pct(share)})`.padStart(13)}  ${`${row.decided} (${pct(row.decided / row.positions)})`.padStart(13)}  ${`${quantile(row.ms, 0.5)} / ${quantile(row.ms, 0.9)} / ${quantile(row.ms, 1)}`.padStart(30)}   ${quantile(row.failedMs, 0.5).padStart(10)}`,
    );
  }
  const within = byDan.slice(0, ENDGAME_LIMIT + 1).reduce((sum, row) => sum + row.positions, 0);
  const provedWithin = byDan.slice(0, ENDGAME_LIMIT + 1).reduce((sum, row) => sum + row.proved, 0);
  const decidedWithin = byDan.slice(0, ENDGAME_LIMIT + 1).reduce((sum, row) => sum + row.decided, 0);
  const allMs = byDan.slice(0, ENDGAME_LIMIT + 1).flatMap((row) => row.ms);
  const decidedMs = byDan.slice(0, ENDGAME_LIMIT + 1).flatMap((row) => row.decidedMs);
  console.log(
    `  measured limit (nine proofs in ten at every count up to it): ${limit < 0 ? 'none' : `${limit} dân`}; ` +
      `the engine tries up to ${ENDGAME_LIMIT} dân: ${pct(within / positions)} of all positions, of which ${pct(within === 0 ? 0 : provedWithin / within)} proved exactly and ${pct(within === 0 ? 0 : decidedWithin / within)} proved won, drawn or lost ` +
      `(${pct(provedWithin / positions)} and ${pct(decidedWithin / positions)} of all positions; an exact proof takes p50 ${quantile(allMs, 0.5)} ms, p90 ${quantile(allMs, 0.9)} ms CPU, ` +
      `a won/drawn/lost one p50 ${quantile(decidedMs, 0.5)} ms, p90 ${quantile(decidedMs, 0.9)} ms)`,
  );
  const withTail = trailing.filter((t) => t > 0).length;
  console.log(
    `  game endings: ${withTail} of ${games} games (${pct(withTail / games)}) end with positions within the limit whose outcome is proved, ` +
      `${(trailing.reduce((a, b) => a + b, 0) / games).toFixed(1)} plies a game on average`,
  );
}

/** Level 8 as it plays against level 8 without the solver, at the same node budget, from paired openings. */
export function printEndgameMatch(pairs: number): void {
  if (pairs === 0) return;
  const s = pairedMatch(DEFAULT_RULES, enginePlayer({ level: 8 }), enginePlayer({ level: 8, exactEndgames: false }), pairs, 8);
  console.log(
    `level 8 with exact endgames vs without, same node budget: +${s.wins} =${s.draws} −${s.losses} over ${s.games} games, ` +
      `${(100 * s.score).toFixed(1)} %, mean margin ${s.meanMargin.toFixed(2)}`,
  );
}
