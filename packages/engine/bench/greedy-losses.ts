// Level 8's games against the greedy player from the openings of the
// greedyEnds bench (the balanced ones; OPENINGS=forced for match.ts's forced
// openings, OPENINGS=file.json for another list make-balanced-openings.ts wrote), one line per game it did not win: opening, seat, plies,
// how the game ended, the score, and the refills and borrowings on the way;
// with DEEP_NODES, what a much deeper search thinks of the first position
// where level 8 chose its move (its margin can be no worse if it played well).
//   DEEP_NODES=3000000 tsx bench/greedy-losses.ts [pairs=50] [out.json]
// FIRST=n starts at the n-th opening.

import { writeFileSync } from 'node:fs';
import { DEFAULT_RULES, newGame, play, type Move, type Position, type State } from '@oanquan/rules';
import { bestMove } from '../src/best-move.js';
import { greedyMove } from '../src/testing/greedy.js';
import { balancedOpenings } from './balanced-openings.js';
import { enginePlayer, opening } from './match.js';

const pairs = Number(process.argv[2] ?? 50);
const out = process.argv[3];
const level8 = enginePlayer({ level: 8 });
const seed = 31 * 8;
/** Nodes of the deep search that values level 8's first free position (0: none). */
const DEEP_NODES = Number(process.env.DEEP_NODES ?? 0);
const FIRST = Number(process.env.FIRST ?? 0);
const balanced = process.env.OPENINGS === 'forced' ? null : balancedOpenings(process.env.OPENINGS);
const openingOf = (i: number) => (balanced === null ? opening(i, DEFAULT_RULES) : balanced[i]!.moves);

/** Whether the ply refilled the new mover's row (R4.3): only a refill lowers a stock or raises a debt. */
function refillOf(before: Position, after: Position): { refilled: boolean; borrowed: boolean } {
  const mover = after.toMove;
  const borrowed = after.debt[mover] > before.debt[mover];
  return { refilled: borrowed || after.captured[mover].dan < before.captured[mover].dan, borrowed };
}

/** The deep search's value, from level 8's view, of the first position where it chooses its move freely. */
function deepValue(state: State): string {
  if (DEEP_NODES === 0) return '';
  const deep = bestMove(state, { nodes: DEEP_NODES });
  return `, deep value at ply ${state.position.ply} ${deep.eval.toFixed(1)} (depth ${deep.depth})`;
}

const lost: unknown[] = [];
let wins = 0, draws = 0, losses = 0;
/** Openings where level 8's two games together scored below the greedy player's from the same seats. */
let pairsBehind = 0;
for (let i = FIRST; i < FIRST + pairs; i++) {
  let pairMargin = 0;
  for (const seat of [0, 1] as const) {
    let state = newGame({ rules: DEFAULT_RULES, first: 0 });
    const moves: Move[] = [];
    let refills = 0, borrowings = 0;
    const step = (move: Move) => {
      const next = play(state, move);
      if (!next.ok) throw new Error(next.code);
      const r = refillOf(state.position, next.state.position);
      if (r.refilled) refills++;
      if (r.borrowed) borrowings++;
      moves.push(move);
      state = next.state;
    };
    for (const move of openingOf(i)) step(move);
    // The opening forces moves of both seats: level 8's first free move may come later.
    let firstFree: State | undefined;
    while (state.position.status === 'playing') {
      if (firstFree === undefined && state.position.toMove === seat) firstFree = state;
      const move = state.position.toMove === seat ? level8(state, seed + 1000 * i + seat + state.position.ply) : greedyMove(state);
      step(move);
    }
    const result = state.position.result!;
    const margin = result.score[seat] - result.score[seat === 0 ? 1 : 0];
    if (margin > 0) wins++; else if (margin < 0) losses++; else draws++;
    pairMargin += margin;
    const line = { opening: i, seat, plies: state.position.ply, reason: result.reason, score: result.score, margin, refills, borrowings, debt: state.position.debt, moves: moves.map((m) => [m.square, m.dir]) };
    if (margin <= 0) {
      const deep = firstFree === undefined ? '' : deepValue(firstFree);
      lost.push(line);
      console.log(`opening ${i} seat ${seat}: ${margin < 0 ? 'lost' : 'drew'} ${result.score.join('-')} (${margin}) in ${state.position.ply} plies, ${result.reason}, ${refills} refills, ${borrowings} borrowings, debts ${state.position.debt.join('/')}${deep}`);
    }
  }
  if (pairMargin < 0) {
    pairsBehind++;
    console.log(`opening ${i}: level 8 behind the greedy player over both seats by ${-pairMargin}`);
  }
}
console.log(`level 8 vs greedy: +${wins} =${draws} −${losses}; openings where it did worse than greedy from both seats together: ${pairsBehind} of ${pairs}`);
if (out !== undefined) writeFileSync(out, JSON.stringify(lost));
