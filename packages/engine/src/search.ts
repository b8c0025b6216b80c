// Negamax alpha-beta with principal variation search, a transposition table,
// killer moves and a history table, under a depth, node and time budget.
// Values are expected final score margins from the mover's view, in points;
// an ended game is worth its exact margin, so won, drawn and lost lines carry
// their true value up the tree.
//
// Repetition (R4.5) needs the stocks and debts the nodes leave out, and the
// earlier states of the game, which a rules State does not expose. The search
// therefore ends a line when its board, quan pieces and mover come back
// within the line with nothing captured and no refill on the way, scoring it
// as R5 scores a game ended there: such a cycle leaves the stocks and debts
// as they were, so R4.5 ends the game if it is played again. A return with a
// capture or a refill on the way is no repetition, even with the same banked
// difference: the stocks and debts have moved, the game goes on, and scoring
// it at the margin of the moment it closed made the same cycle worth 15
// points entered at one node and 5 at the next, which level 8 chased into
// losing refill spirals. A cycle that could not come round again before the
// ply limit (R4.4) is played on too. A value that leans on a return to a node
// above the one searched holds on that path only and is not stored.

import { evaluation, finalValue, type Evaluate, type EvaluationWeights } from './evaluation.js';
import { moveMask, playNode, type GameNode, type NodeRules } from './game-node.js';
import { MOVE_COUNT, squareOfMove, dirOfMove } from './moves.js';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_UPPER,
  TranspositionTable,
  keyOf,
  type Entry,
  type Key,
} from './transposition-table.js';

export const MAX_DEPTH = 64;
const INFINITY = 1e9;
/** Nodes between two looks at the clock. */
const CLOCK_EVERY = 1024;

export interface SearchLimits {
  /** Deepest iteration. */
  readonly depth: number;
  /** Stop after this many nodes. */
  readonly nodes: number;
  /** Stop at this `performance.now()` time. */
  readonly deadline: number;
  /** Start no new iteration after this `performance.now()` time: it would not finish. */
  readonly softDeadline: number;
}

export interface RootResult {
  /** Move index (see moves.ts). */
  readonly move: number;
  readonly value: number;
  readonly pv: readonly number[];
  /** The deepest iteration that finished. */
  readonly depth: number;
  readonly nodes: number;
}

export class Search {
  nodes = 0;
  private stopped = false;
  /** The best root value of the iteration in progress. */
  private partialValue = -INFINITY;
  private limits: SearchLimits = { depth: 1, nodes: Infinity, deadline: Infinity, softDeadline: Infinity };
  private readonly evaluate: Evaluate;
  private readonly table: TranspositionTable;
  private readonly entry: Entry = { value: 0, depth: 0, bound: 0, move: -1 };
  private readonly pathLow = new Int32Array(MAX_DEPTH + 1);
  private readonly pathHigh = new Int32Array(MAX_DEPTH + 1);
  private readonly pathBanked = new Float64Array(MAX_DEPTH + 1);
  /** The shallowest ply of the path that a repetition below the current node went back to. */
  private cycleTo = MAX_DEPTH + 1;
  private readonly key: Key = { low: 0, high: 0 };
  private readonly pv = new Int8Array((MAX_DEPTH + 1) * (MAX_DEPTH + 1));
  private readonly pvLength = new Int32Array(MAX_DEPTH + 1);
  private readonly killers = new Int8Array(2 * (MAX_DEPTH + 1)).fill(-1);
  private readonly history = new Int32Array(2 * MOVE_COUNT);
  private readonly children: GameNode[][] = Array.from({ length: MAX_DEPTH + 1 }, () => []);
  private readonly order = new Int8Array((MAX_DEPTH + 1) * MOVE_COUNT);
  private readonly ranks = new Float64Array((MAX_DEPTH + 1) * MOVE_COUNT);
  /** Under one history step: only reorders root moves that rank equal, so a seed can vary which of them is played. */
  private readonly rootNoise = new Float64Array(MOVE_COUNT);

  constructor(
    private readonly rules: NodeRules,
    weights: EvaluationWeights,
    tableBits = 18,
  ) {
    this.evaluate = evaluation(weights);
    this.table = new TranspositionTable(tableBits);
  }

  /** Iterative deepening from the root until a limit; the root must still be playing. */
  iterate(root: GameNode, limits: SearchLimits, random?: () => number): RootResult {
    this.start(limits);
    for (let move = 0; move < MOVE_COUNT; move++) this.rootNoise[move] = random === undefined ? 0 : random() / 2;
    const moves = legalOf(root);
    let best: RootResult = { move: moves[0]!, value: this.evaluate(root), pv: [moves[0]!], depth: 0, nodes: 0 };
    const maxDepth = Math.min(limits.depth, MAX_DEPTH);
    for (let depth = 1; depth <= maxDepth; depth++) {
      this.partialValue = -INFINITY;
      const value = this.node(root, depth, -INFINITY, INFINITY, 0);
      const pv = Array.from(this.pv.subarray(0, this.pvLength[0]!));
      if (this.stopped) {
        // Root moves searched in full before the stop stand: the best of them
        // is at least as good as the previous iteration's move at this depth.
        if (pv.length > 0 && this.partialValue > -INFINITY && depth > 1) {
          best = { move: pv[0]!, value: this.partialValue, pv, depth: best.depth, nodes: this.nodes };
        }
        break;
      }
      best = { move: pv[0]!, value, pv, depth, nodes: this.nodes };
      if (performance.now() >= limits.softDeadline) break;
    }
    return { ...best, nodes: this.nodes };
  }

  /**
   * The value of each legal move at one depth, each searched with a full
   * window so that every value is exact: for choosing among moves by value
   * and for judging a played move. Null when a limit stopped the search.
   */
  rootValues(root: GameNode, depth: number, limits: SearchLimits, only?: readonly number[]): Map<number, number> | null {
    this.start(limits);
    const values = new Map<number, number>();
    this.pathLow[0] = keyOf(root, this.key).low;
    this.pathHigh[0] = this.key.high;
    this.pathBanked[0] = root.banked;
    for (const move of only ?? legalOf(root)) {
      const child = playNode(this.rules, root, squareOfMove(root.toMove, move), dirOfMove(move));
      const value = -this.node(child, depth - 1, -INFINITY, INFINITY, 1);
      if (this.stopped) return null;
      values.set(move, value);
    }
    return values;
  }

  private start(limits: SearchLimits): void {
    this.limits = limits;
    this.nodes = 0;
    this.stopped = false;
    this.cycleTo = MAX_DEPTH + 1;
  }

  private node(node: GameNode, depth: number, alpha: number, beta: number, ply: number): number {
    this.pvLength[ply] = 0;
    if (++this.nodes % CLOCK_EVERY === 0 && performance.now() >= this.limits.deadline) this.stopped = true;
    if (this.nodes >= this.limits.nodes) this.stopped = true;
    if (this.stopped) return 0;
    if (node.ended) return finalValue(node);
    // Leaves are most nodes: they skip the key and the repetition check,
    // whose static value would differ from theirs by the weights' terms only.
    if (depth <= 0) return this.evaluate(node);

    const key = keyOf(node, this.key);
    this.pathLow[ply] = key.low;
    this.pathHigh[ply] = key.high;
    this.pathBanked[ply] = node.banked;
    // Only a quiet cycle repeats R4.5's state: a capture or a refill on the way moves stocks or debts.
    for (let back = ply - 1; back >= 0 && this.pathBanked[back] === node.banked; back--) {
      // A cycle that cannot come round again before the ply limit (R4.4) is played on, as R4.5 would.
      if (((ply - back) & 1) === 0 && this.pathLow[back] === key.low && this.pathHigh[back] === key.high && node.ply + ply - back <= this.rules.plyLimit) {
        if (back < this.cycleTo) this.cycleTo = back;
        return finalValue(node);
      }
    }
    if (ply >= MAX_DEPTH) return this.evaluate(node);

    const banked = node.toMove === 0 ? node.banked : -node.banked;
    // Near the ply limit the value depends on the ply too, which the key leaves out.
    const useTable = node.ply + depth < this.rules.plyLimit;
    let tableMove = -1;
    if (useTable && this.table.probe(key, this.entry)) {
      const entry = this.entry;
      tableMove = entry.move;
      if (ply > 0 && entry.depth >= depth) {
        const value = entry.value + banked;
        if (
          entry.bound === BOUND_EXACT ||
          (entry.bound === BOUND_LOWER && value >= beta) ||
          (entry.bound === BOUND_UPPER && value <= alpha)
        ) {
          if (entry.move >= 0) {
            this.pv[ply * (MAX_DEPTH + 1)] = entry.move;
            this.pvLength[ply] = 1;
          }
          return value;
        }
      }
    }
    const low = key.low;
    const high = key.high;

    const mover = node.toMove;
    const children = this.children[ply]!;
    const order = this.order.subarray(ply * MOVE_COUNT, (ply + 1) * MOVE_COUNT);
    const killer0 = this.killers[2 * ply]!;
    // The table's move is tried before the others are even played: it often
    // refutes the node alone.
    let count: number;
    let generated = false;
    if (tableMove >= 0 && (moveMask(node) & (1 << (tableMove >> 1))) !== 0) {
      children[tableMove] = playNode(this.rules, node, squareOfMove(mover, tableMove), dirOfMove(tableMove));
      order[0] = tableMove;
      count = 1;
    } else {
      count = this.generate(node, ply, 0, -1);
      generated = true;
    }

    const originalAlpha = alpha;
    const outerCycleTo = this.cycleTo;
    this.cycleTo = MAX_DEPTH + 1;
    let bestValue = -INFINITY;
    let bestMove = order[0]!;
    for (let i = 0; i < count || !generated; i++) {
      if (i === 1 && !generated) {
        count = this.generate(node, ply, 1, order[0]!);
        generated = true;
        if (count === 1) break;
      }
      const move = order[i]!;
      const child = children[move]!;
      let value: number;
      if (i === 0) {
        value = -this.node(child, depth - 1, -beta, -alpha, ply + 1);
      } else {
        // A window of one point above alpha proves most moves no better
        // cheaply; a value inside it is exact, above it is searched again.
        value = -this.node(child, depth - 1, -alpha - 1, -alpha, ply + 1);
        if (value > alpha && value < beta && !this.stopped) {
          value = -this.node(child, depth - 1, -beta, -alpha, ply + 1);
        }
      }
      if (this.stopped) return 0;
      if (value > bestValue) {
        bestValue = value;
        bestMove = move;
        if (value > alpha) {
          alpha = value;
          this.copyPv(ply, move);
          if (ply === 0) this.partialValue = value;
          if (alpha >= beta) {
            if (move !== killer0) {
              this.killers[2 * ply + 1] = killer0;
              this.killers[2 * ply] = move;
            }
            const slot = mover * MOVE_COUNT + move;
            this.history[slot] = Math.min(this.history[slot]! + depth * depth, 1e5);
            break;
          }
        }
      }
    }

    // A value that leans on a return to a node above this one holds on this
    // path only: stored, it would be read on paths where no such return
    // exists (and refill cycles reach the same boards by many paths).
    const pathFree = this.cycleTo >= ply;
    if (this.cycleTo > outerCycleTo) this.cycleTo = outerCycleTo;
    if (useTable && pathFree) {
      const bound = bestValue >= beta ? BOUND_LOWER : bestValue <= originalAlpha ? BOUND_UPPER : BOUND_EXACT;
      this.table.store({ low, high }, bestValue - banked, depth, bound, bestMove);
    }
    return bestValue;
  }

  /**
   * Plays the node's moves but `skip` into the ply's children and orders them
   * from `start` on: by points banked at once, then killers and history.
   * Returns the number of moves ordered.
   */
  private generate(node: GameNode, ply: number, start: number, skip: number): number {
    const mover = node.toMove;
    const mask = moveMask(node);
    const children = this.children[ply]!;
    const order = this.order.subarray(ply * MOVE_COUNT, (ply + 1) * MOVE_COUNT);
    const ranks = this.ranks;
    const base = ply * MOVE_COUNT;
    const killer0 = this.killers[2 * ply]!;
    const killer1 = this.killers[2 * ply + 1]!;
    let count = start;
    for (let move = 0; move < MOVE_COUNT; move++) {
      if (move === skip || (mask & (1 << (move >> 1))) === 0) continue;
      const child = playNode(this.rules, node, squareOfMove(mover, move), dirOfMove(move));
      const gain = mover === 0 ? child.banked - node.banked : node.banked - child.banked;
      let rank = gain * 1e6 + this.history[mover * MOVE_COUNT + move]!;
      if (move === killer0 || move === killer1) rank += 5e5;
      if (ply === 0) rank += this.rootNoise[move]!;
      children[move] = child;
      // Insertion sort: ten moves at most.
      let i = count++;
      while (i > start && ranks[base + order[i - 1]!]! < rank) {
        order[i] = order[i - 1]!;
        i--;
      }
      order[i] = move;
      ranks[base + move] = rank;
    }
    return count;
  }

  private copyPv(ply: number, move: number): void {
    const width = MAX_DEPTH + 1;
    const at = ply * width;
    this.pv[at] = move;
    const childLength = ply < MAX_DEPTH ? this.pvLength[ply + 1]! : 0;
    for (let i = 0; i < childLength; i++) this.pv[at + 1 + i] = this.pv[(ply + 1) * width + i]!;
    this.pvLength[ply] = childLength + 1;
  }
}

/** The legal move indices of a playing node, ascending. */
export function legalOf(node: GameNode): number[] {
  const mask = moveMask(node);
  const moves: number[] = [];
  for (let move = 0; move < MOVE_COUNT; move++) if ((mask & (1 << (move >> 1))) !== 0) moves.push(move);
  return moves;
}
