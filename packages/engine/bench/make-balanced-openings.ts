// Chooses the balanced openings of balanced-openings.ts: the generator's
// candidates in order, each valued by a deep search with a node budget, kept
// while within BALANCE_MARGIN of even, until there are enough. Deterministic:
// rerunning it writes the same file. Takes about 20 minutes (half a second or so a candidate, about one in 34 kept).
//   tsx bench/make-balanced-openings.ts [count=50] [out=bench/balanced-openings.json]

import { writeFileSync } from 'node:fs';
import { DEFAULT_RULES } from '@oanquan/rules';
import { bestMove } from '../src/best-move.js';
import {
  BALANCE_MARGIN,
  BALANCED_OPENINGS_FILE,
  DEEP_NODES,
  candidateOpening,
  positionKey,
  type BalancedOpening,
} from './balanced-openings.js';

const wanted = Number(process.argv[2] ?? 50);
const out = process.argv[3] ?? BALANCED_OPENINGS_FILE;
const chosen: BalancedOpening[] = [];
const seen = new Set<string>();
const values: number[] = [];
const started = performance.now();
for (let candidate = 0; chosen.length < wanted; candidate++) {
  const drawn = candidateOpening(candidate, DEFAULT_RULES);
  if (drawn === null) continue;
  const key = positionKey(drawn.state);
  if (seen.has(key)) continue;
  seen.add(key);
  const deep = bestMove(drawn.state, { nodes: DEEP_NODES });
  // The search values the position for the player to move; the list keeps the first mover's view.
  const value = drawn.state.position.toMove === 0 ? deep.eval : -deep.eval;
  values.push(value);
  const kept = Math.abs(value) <= BALANCE_MARGIN;
  if (kept) chosen.push({ candidate, moves: drawn.moves, value: Math.round(value * 100) / 100, depth: deep.depth });
  console.log(`candidate ${candidate}: ${drawn.moves.map((m) => `${m.square}${m.dir > 0 ? '+' : '-'}`).join(' ')} value ${value.toFixed(1)} depth ${deep.depth}${kept ? ' kept' : ''}`);
}
writeFileSync(out, JSON.stringify(chosen, null, 1) + '\n');
const seconds = (performance.now() - started) / 1000;
const abs = values.map(Math.abs).sort((a, b) => a - b);
console.log(
  `${chosen.length} balanced openings of ${values.length} candidates valued in ${seconds.toFixed(0)} s; ` +
    `median |value| of all candidates ${abs[Math.floor(abs.length / 2)]!.toFixed(1)} points`,
);
