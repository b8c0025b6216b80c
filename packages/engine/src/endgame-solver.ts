// The exact endgame solver: alpha-beta to the end of the game, with no
// horizon and no evaluation, so every value is the final R5 margin with best
// play from both sides under the rules as they are, refills and borrowing
// (R4.3), the ply limit (R4.4) and repetition (R4.5) included.
//
// Repetition is counted on the full R4.5 state (exact-node.ts) along the
// line, the game's own earlier states included: the third occurrence ends
// the game there. So a value depends on the state and on which earlier
// states a repetition could still meet; the table keys on both (the full
// state exactly, the earlier states as a hash of their multiset, see
// endgame-table.ts), so a value found on one path is never read on a path
// where a repetition would have changed it. A node whose debts overflow the
// key's 8 bits stays out of the table; the repetition scan compares debts
// exactly.
//
// Ordering: the table's move, then the points a move banks at once, then a
// history of moves that cut off. A node budget bounds the work; a solve
// that runs out of it reports nothing rather than a guess.
//
// The search recurses once per ply, and a line may run to the ply limit,
// which the rules allow up to 10,000 (R4.4): deeper than a browser worker's
// stack of about 1 MB holds (some 2,000 frames). So a line is followed at
// most MAX_SOLVE_PLY plies past the root; a probe that reaches that depth
// gives up as one out of nodes does, keeping what earlier probes proved.
// Under the default ply limit (400) no line is that long, and a solve is
// exactly what it was without the cap.

import type { State } from '@oanquan/rules';
import { finalValue } from './evaluation.js';
import { exactNodeOf, playExact, type ExactNode } from './exact-node.js';
import { moveMask, type NodeRules, nodeRules } from './game-node.js';
import { MOVE_COUNT } from './moves.js';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_UPPER,
  EndgameTable,
  MAX_KEYED_DEBT,
  exactKeyOf,
  stateHash,
  type ExactEntry,
  type ExactKey,
} from './endgame-table.js';

const INFINITY = 1e6;
/** Nodes between two looks at the clock. */
const CLOCK_EVERY = 4096;
/** Deepest line followed, in plies from the root: above the default ply limit (R4.4), a quarter of a 1 MB stack. */
export const MAX_SOLVE_PLY = 512;

/** The node budget, the deadline or the depth cap was reached: the probe proves nothing. */
class OutOfBudget extends Error {}

export interface SolveLimits {
  readonly nodes: number;
  /** A `performance.now()` time. */
  readonly deadline: number;
}

export interface RootSolution {
  /** The exact final margin from the mover's view with best play. */
  readonly value: number;
  /** A best move (move index, see moves.ts). */
  readonly move: number;
  readonly nodes: number;
}

/** Proved bounds of a value (null: none proved); equal bounds are the exact value. */
export interface ProvedBounds {
  readonly lower: number | null;
  readonly upper: number | null;
  /** A root move that achieves `lower` (move index), or −1. */
  readonly move: number;
  readonly nodes: number;
}

export class EndgameSolver {
  nodes = 0;
  private limits: SolveLimits = { nodes: Infinity, deadline: Infinity };
  private readonly rules: NodeRules;
  private readonly table: EndgameTable;
  private readonly entry: ExactEntry = { value: 0, bound: 0, move: -1, ply: 0 };
  private readonly key: ExactKey = { x: 0, y: 0, z: 0, context: 0 };
  /** The game's earlier states then the line searched: keys of the full state per index. */
  private readonly pathX: Int32Array;
  private readonly pathY: Int32Array;
  private readonly pathZ: Int32Array;
  /** Per path index: both debts exactly, which the key holds to 8 bits only. */
  private readonly pathDebts: Float64Array;
  /** Per path index: the repetition context of that state, the sum of the hashes of the states before it with the same quan pieces and debts. */
  private readonly pathContext: Int32Array;
  /** Index of the root in the path arrays: the game's earlier states come before it. */
  private base = 0;
  private readonly history = new Int32Array(2 * MOVE_COUNT);
  private readonly order: Int8Array;
  private readonly ranks: Float64Array;
  private readonly children: ExactNode[][];

  constructor(private readonly state: State, tableBits = 18) {
    this.rules = nodeRules(state.rules);
    this.table = new EndgameTable(tableBits);
    const room = state.history.length + Math.min(state.rules.plyLimit, MAX_SOLVE_PLY) + 2;
    this.pathX = new Int32Array(room);
    this.pathY = new Int32Array(room);
    this.pathZ = new Int32Array(room);
    this.pathDebts = new Float64Array(room);
    this.pathContext = new Int32Array(room);
    const root = exactNodeOf(state);
    // Earlier states share the root's quan pieces and debts: the history starts afresh when those change.
    const recorded = state.history.states(root.stock + root.squares.reduce((a, b) => a + b, 0));
    for (const [i, s] of recorded.entries()) {
      exactKeyOf({ ...root, squares: [...s.squares], dan0: s.dan0, toMove: s.mover as 0 | 1 }, this.key);
      this.pathX[i] = this.key.x;
      this.pathY[i] = this.key.y;
      this.pathZ[i] = this.key.z;
      this.pathDebts[i] = debtsOf(root);
      this.setContext(i);
    }
    this.base = recorded.length - 1;
    this.order = new Int8Array(room * MOVE_COUNT);
    this.ranks = new Float64Array(room * MOVE_COUNT);
    this.children = Array.from({ length: room }, () => []);
  }

  /** The root position's exact value and a best move; null when the budget ran out first. */
  solve(limits: SolveLimits): RootSolution | null {
    const bounds = this.bounds(limits);
    if (bounds.lower === null || bounds.lower !== bounds.upper) return null;
    return { value: bounds.lower, move: bounds.move, nodes: this.nodes };
  }

  /** The exact value of one root move from the mover's view; null when the budget ran out first. */
  solveMove(move: number, limits: SolveLimits): number | null {
    const bounds = this.moveBounds(move, limits);
    return bounds.lower !== null && bounds.lower === bounds.upper ? bounds.lower : null;
  }

  /**
   * What the budget proves of the root's value, from the mover's view: first
   * whether the mover wins, then narrower bounds until they meet. A win is
   * often proved in a few nodes (the mover ends the game at once) where the
   * exact margin needs every escape refuted to the end of the game.
   */
  bounds(limits: SolveLimits): ProvedBounds {
    this.start(limits);
    return this.narrow(() => exactNodeOf(this.state), 0, 1);
  }

  /** The same for one root move, from the root mover's view. */
  moveBounds(move: number, limits: SolveLimits): ProvedBounds {
    this.start(limits);
    const root = exactNodeOf(this.state);
    this.pathX[this.base] = exactKeyOf(root, this.key).x;
    this.pathY[this.base] = this.key.y;
    this.pathZ[this.base] = this.key.z;
    this.setContext(this.base);
    const child = playExact(this.rules, root, move);
    const bounds = this.narrow(() => child, 1, -1);
    return { lower: bounds.lower, upper: bounds.upper, move, nodes: bounds.nodes };
  }

  /**
   * Null-window probes at `ply` until the bounds meet or the budget runs
   * out; `sign` −1 reads the node from its parent's view.
   */
  private narrow(node: () => ExactNode, ply: number, sign: 1 | -1): ProvedBounds {
    let lower = -INFINITY;
    let upper = INFINITY;
    let move = -1;
    // From the parent's view a win is a value ≥ 1, so from the node's own a value ≤ −1.
    let threshold = sign === 1 ? 1 : 0;
    try {
      while (lower < upper) {
        const value = this.search(node(), threshold - 1, threshold, ply);
        if (value >= threshold) {
          lower = value;
          if (ply === 0) move = this.bestRootMove;
        } else {
          upper = value;
        }
        threshold = lower > -INFINITY ? lower + 1 : upper;
      }
    } catch (error) {
      if (!(error instanceof OutOfBudget)) throw error;
    }
    const low = lower === -INFINITY ? null : lower + 0;
    const high = upper === INFINITY ? null : upper + 0;
    // + 0 turns a negated −0 into 0.
    if (sign === 1) return { lower: low, upper: high, move, nodes: this.nodes };
    return { lower: high === null ? null : 0 - high, upper: low === null ? null : 0 - low, move, nodes: this.nodes };
  }

  private bestRootMove = -1;

  private start(limits: SolveLimits): void {
    this.limits = limits;
    this.nodes = 0;
  }

  /** The context of the state at path index `at` from those before it: quan pieces and debts never come back, so a change of them starts afresh. */
  private setContext(at: number): void {
    const previous = at - 1;
    this.pathContext[at] =
      previous >= 0 && this.pathZ[previous]! >>> 12 === this.pathZ[at]! >>> 12
        ? (this.pathContext[previous]! + stateHash(this.pathX[previous]!, this.pathY[previous]!, this.pathZ[previous]!)) | 0
        : 0;
  }

  private search(node: ExactNode, alpha: number, beta: number, ply: number): number {
    if (++this.nodes >= this.limits.nodes) throw new OutOfBudget();
    if (this.nodes % CLOCK_EVERY === 0 && performance.now() >= this.limits.deadline) throw new OutOfBudget();
    if (node.ended) return finalValue(node);
    if (ply > MAX_SOLVE_PLY) throw new OutOfBudget();
    const key = exactKeyOf(node, this.key);
    const at = this.base + ply;
    this.pathX[at] = key.x;
    this.pathY[at] = key.y;
    this.pathZ[at] = key.z;
    const debts = debtsOf(node);
    this.pathDebts[at] = debts;
    this.setContext(at);
    key.context = this.pathContext[at]!;
    const tail = key.z >>> 12;
    if (ply > 0) {
      let seen = 0;
      // R4.5: quan pieces only leave and debts only grow, so the scan stops
      // at the first state where either differs.
      for (let back = at - 2; back >= 0 && this.pathZ[back]! >>> 12 === tail && this.pathDebts[back] === debts; back -= 2) {
        if (this.pathZ[back] === key.z && this.pathX[back] === key.x && this.pathY[back] === key.y) {
          seen++;
        }
      }
      if (seen >= 2) return finalValue(node);
    }

    const banked = node.toMove === 0 ? node.banked : -node.banked;
    // Debts past the key's 8 bits would let two states share an entry.
    const keyed = node.debt0 <= MAX_KEYED_DEBT && node.debt1 <= MAX_KEYED_DEBT;
    let tableMove = -1;
    if (keyed && this.table.probe(key, this.entry)) {
      const e = this.entry;
      tableMove = e.move;
      if (e.ply === node.ply && ply > 0) {
        const value = e.value + banked;
        if (e.bound === BOUND_EXACT || (e.bound === BOUND_LOWER && value >= beta) || (e.bound === BOUND_UPPER && value <= alpha)) {
          return value;
        }
      }
    }
    const x = key.x;
    const y = key.y;
    const z = key.z;
    const context = key.context;

    const count = this.generate(node, ply, tableMove);
    const order = this.order;
    const children = this.children[ply]!;
    const first = ply * MOVE_COUNT;
    const originalAlpha = alpha;
    let bestValue = -INFINITY;
    let bestMove = order[first]!;
    for (let i = 0; i < count; i++) {
      const move = order[first + i]!;
      const child = children[move]!;
      let value: number;
      if (i === 0) {
        value = -this.search(child, -beta, -alpha, ply + 1);
      } else {
        value = -this.search(child, -alpha - 1, -alpha, ply + 1);
        if (value > alpha && value < beta) value = -this.search(child, -beta, -alpha, ply + 1);
      }
      if (value > bestValue) {
        bestValue = value;
        bestMove = move;
        if (value > alpha) {
          alpha = value;
          if (alpha >= beta) {
            const slot = node.toMove * MOVE_COUNT + move;
            this.history[slot] = Math.min(this.history[slot]! + 1, 1e6);
            break;
          }
        }
      }
    }
    if (ply === 0) this.bestRootMove = bestMove;

    if (keyed) {
      const bound = bestValue >= beta ? BOUND_LOWER : bestValue <= originalAlpha ? BOUND_UPPER : BOUND_EXACT;
      this.table.store({ x, y, z, context }, bestValue - banked, bound, bestMove, node.ply);
    }
    return bestValue;
  }

  /** Plays the node's moves into the ply's children and orders them: the table's move, then points banked at once, then history. */
  private generate(node: ExactNode, ply: number, tableMove: number): number {
    const mover = node.toMove;
    const mask = moveMask(node);
    const children = this.children[ply]!;
    const order = this.order;
    const ranks = this.ranks;
    const first = ply * MOVE_COUNT;
    let count = 0;
    for (let move = 0; move < MOVE_COUNT; move++) {
      if ((mask & (1 << (move >> 1))) === 0) continue;
      const child = playExact(this.rules, node, move);
      const gain = mover === 0 ? child.banked - node.banked : node.banked - child.banked;
      const rank = move === tableMove ? 1e12 : gain * 1e7 + this.history[mover * MOVE_COUNT + move]!;
      children[move] = child;
      let i = count++;
      while (i > 0 && ranks[first + order[first + i - 1]!]! < rank) {
        order[first + i] = order[first + i - 1]!;
        i--;
      }
      order[first + i] = move;
      ranks[first + move] = rank;
    }
    return count;
  }
}

/** Both debts as one exact number, for the repetition scan. */
function debtsOf(node: ExactNode): number {
  return node.debt0 * 65536 + node.debt1;
}
