// The engine's search at one node budget against the same search at
// another: what more nodes, and so more time, are worth. Level 8 is this
// search at 200,000 nodes with the endgame solver, which decided no game of
// its own match and is left out here. Each opening is drawn by the seeded
// generator of balanced-openings.ts (two to four plies, of any value, as
// varied as real openings; or, with `balanced`, the committed list of those a
// deep search finds even, classic rules) and played from both seats. The openings are
// shared out among processes, one per core by default; budgets are in nodes,
// so the games are the same however many run and however busy the machine is.
//   pnpm bench:budgets <nodes a> <nodes b> [pairs=50] [classic|gap|balanced] [processes=cores]

import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DEFAULT_RULES, resolveRules, type Move, type RuleOptions } from '@oanquan/rules';
import { balancedOpenings, candidateOpening } from './balanced-openings.js';
import { enginePlayer, pairedMatch } from './match.js';

interface Share {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  marginSum: number;
  seatDecided: number;
  /** Milliseconds of search, and moves, of a and of b. */
  ms: [number, number];
  moves: [number, number];
}

const OPENINGS = ['classic', 'gap', 'balanced'] as const;
type Openings = (typeof OPENINGS)[number];

/** Opening i: the generator's (2i)-th candidate, or the next one whose game goes on. */
function drawnOpening(index: number, rules: RuleOptions): readonly Move[] {
  for (let candidate = 2 * index; ; candidate++) {
    const drawn = candidateOpening(candidate, rules);
    if (drawn !== null) return drawn.moves;
  }
}

function playShare(a: number, b: number, pairs: number, openings: Openings, part: number, parts: number): Share {
  const rules = openings === 'gap' ? resolveRules({ emptyQuanIsGap: true }) : DEFAULT_RULES;
  const balanced = openings === 'balanced' ? balancedOpenings() : null;
  const share: Share = { games: 0, wins: 0, draws: 0, losses: 0, marginSum: 0, seatDecided: 0, ms: [0, 0], moves: [0, 0] };
  for (let i = part; i < pairs; i += parts) {
    const score = pairedMatch(
      rules,
      enginePlayer({ nodes: a }),
      enginePlayer({ nodes: b }),
      1,
      17 + i,
      (_state, _move, ms, player) => {
        const side = player === 'a' ? 0 : 1;
        share.ms[side] += ms;
        share.moves[side]++;
      },
      () => (balanced === null ? drawnOpening(i, rules) : balanced[i]!.moves),
    );
    share.games += score.games;
    share.wins += score.wins;
    share.draws += score.draws;
    share.losses += score.losses;
    share.marginSum += score.meanMargin * score.games;
    share.seatDecided += score.seatDecided;
  }
  return share;
}

const [first, ...rest] = process.argv.slice(2);
if (first === 'share') {
  const [a, b, pairs, openings, part, parts] = rest.map(Number) as [number, number, number, number, number, number];
  console.log(JSON.stringify(playShare(a, b, pairs, OPENINGS[openings]!, part, parts)));
} else {
  const a = Number(first);
  const b = Number(rest[0]);
  const pairs = Number(rest[1] ?? 50);
  const openings = OPENINGS.indexOf((rest[2] ?? 'classic') as Openings);
  const most = openings === 2 ? balancedOpenings().length : Infinity;
  const parts = Number(rest[3] ?? availableParallelism());
  if (!(a > 0 && b > 0 && pairs > 0 && pairs <= most && parts > 0 && openings >= 0)) {
    throw new Error(`usage: budget-match.ts <nodes a> <nodes b> [pairs=50] [classic|gap|balanced] [processes] (at most ${most} balanced pairs)`);
  }
  const started = performance.now();
  const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
  const shares = await Promise.all(
    Array.from(
      { length: parts },
      (_, part) =>
        new Promise<Share>((resolve, reject) =>
          execFile(tsx, [fileURLToPath(import.meta.url), 'share', ...[a, b, pairs, openings, part, parts].map(String)], (error, out) =>
            error ? reject(error) : resolve(JSON.parse(out) as Share),
          ),
        ),
    ),
  );
  const total = (pick: (s: Share) => number) => shares.reduce((sum, s) => sum + pick(s), 0);
  const games = total((s) => s.games);
  const wins = total((s) => s.wins);
  const draws = total((s) => s.draws);
  const msA = total((s) => s.ms[0]) / total((s) => s.moves[0]);
  const msB = total((s) => s.ms[1]) / total((s) => s.moves[1]);
  const n = (x: number) => x.toLocaleString('en-US');
  console.log(
    `search at ${n(a)} nodes vs ${n(b)} nodes (${['classic rules', 'emptyQuanIsGap', 'balanced openings, classic rules'][openings]}): ` +
      `${((100 * (wins + draws / 2)) / games).toFixed(1)} % over ${games} games (+${wins} =${draws} −${total((s) => s.losses)}, ` +
      `mean margin ${(total((s) => s.marginSum) / games).toFixed(2)}); the same seat won both games of ${total((s) => s.seatDecided)} of ${pairs} openings; ` +
      `ms a move ${msA.toFixed(1)} and ${msB.toFixed(1)}; ${((performance.now() - started) / 1000).toFixed(0)} s on ${parts} processes`,
  );
}
