import { PRESETS, legalMoves, play, resolveRules, stateFromPosition, validatePosition, type Position, type RuleOptions, type State } from '@oanquan/rules';
import { describe, expect, it } from 'vitest';
import { EndgameSolver } from './endgame-solver.js';
import { fromRulesMove } from './moves.js';
import { seededRandom } from './random.js';
import { bruteForce } from './testing/brute-force.js';

const RULE_SETS: readonly Partial<RuleOptions>[] = [
  PRESETS.classic,
  PRESETS.vietnam,
  { emptyQuanIsGap: true },
  { skipOrigin: true, quanValue: 5 },
  { endWhen: 'quan-pieces-captured' },
];

/** A random small endgame: a few dân on the board, small stocks and debts, the ply limit close enough for a brute force. */


function randomEndgame(seed: number): State {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  for (;;) {
    const squares = new Array<number>(12).fill(0);
    const dan = 1 + pick(6);
    for (let i = 0; i < dan; i++) squares[pick(12)]!++;
    const toMove = pick(2) as 0 | 1;
    if (squares.slice(6 * toMove + 1, 6 * toMove + 6).every((n) => n === 0)) continue;
    const quan: [boolean, boolean] = [random() < 0.4, random() < 0.4];
    const owner = () => pick(2);
    const quanTaken = [0, 0];
    if (!quan[0]) quanTaken[owner()]!++;
    if (!quan[1]) quanTaken[owner()]!++;
    const rules = resolveRules({ ...RULE_SETS[pick(RULE_SETS.length)]!, plyLimit: 200 });
    const ply = rules.plyLimit - 4 - pick(7);
    const position: Position = {
      squares,
      quan,
      captured: [
        { dan: pick(4), quan: quanTaken[0]! },
        { dan: pick(4), quan: quanTaken[1]! },
      ],
      debt: [pick(3), pick(2)],
      toMove,
      ply,
      status: 'playing',
      result: null,
    };
    if (!validatePosition(position).ok) continue;
    let state = stateFromPosition(position, rules);
    // A few plies of play first, so the game's own history counts too.
    for (let i = pick(3); i > 0 && state.position.status === 'playing'; i--) {
      const moves = legalMoves(state);
      const next = play(state, moves[pick(moves.length)]!);
      if (!next.ok) throw new Error(next.code);
      state = next.state;
    }
    if (state.position.status === 'playing') return state;
  }
}

function solve(state: State): number {
  const solution = new EndgameSolver(state, 12).solve({ nodes: Infinity, deadline: Infinity });
  if (solution === null) throw new Error('no budget was set');
  return solution.value;
}

describe('the exact endgame solver', () => {
  it('agrees with a brute-force minimax over the rules on random small endgames', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const state = randomEndgame(seed);
      expect({ seed, value: solve(state) }).toEqual({ seed, value: bruteForce(state) });
    }
  });

  it('gives each root move its exact value, and the best move reaches the best of them', () => {
    for (let seed = 1000; seed < 1100; seed++) {
      const state = randomEndgame(seed);
      const solver = new EndgameSolver(state, 12);
      const root = solver.solve({ nodes: Infinity, deadline: Infinity })!;
      const values = legalMoves(state).map((move) => {
        const next = play(state, move);
        if (!next.ok) throw new Error(next.code);
        const exact = solver.solveMove(fromRulesMove(state.position.toMove, move), { nodes: Infinity, deadline: Infinity });
        expect(exact).toBe(0 - bruteForce(next.state));
        return exact!;
      });
      expect(Math.max(...values)).toBe(root.value);
      expect(solver.solveMove(root.move, { nodes: Infinity, deadline: Infinity })).toBe(root.value);
    }
  });
});
