// The transposition table. A node is keyed on its board, quan pieces and
// mover only (see game-node.ts for why that is enough), and its value is
// stored relative to what the mover has banked, so one entry serves every
// way of reaching the same board with a different score.

import type { GameNode } from './game-node.js';
import { seededRandom } from './random.js';

export const BOUND_EXACT = 0;
export const BOUND_LOWER = 1;
export const BOUND_UPPER = 2;

/** Room for 64 dân per square: more than a square can hold (50). */
const COUNTS = 64;

const random = seededRandom(0x0a9);
const word = (): number => (random() * 4294967296) | 0;
const SQUARE_KEYS_LOW = Int32Array.from({ length: 12 * COUNTS }, word);
const SQUARE_KEYS_HIGH = Int32Array.from({ length: 12 * COUNTS }, word);
const QUAN_KEYS_LOW = Int32Array.from({ length: 4 }, word);
const QUAN_KEYS_HIGH = Int32Array.from({ length: 4 }, word);
const MOVER_LOW = word();
const MOVER_HIGH = word();

/** A 64-bit Zobrist key as two 32-bit halves: the low one indexes, the high one checks. */
export interface Key {
  low: number;
  high: number;
}

export function keyOf(node: GameNode, key: Key): Key {
  let low = QUAN_KEYS_LOW[node.quan]!;
  let high = QUAN_KEYS_HIGH[node.quan]!;
  const s = node.squares;
  for (let i = 0; i < 12; i++) {
    low ^= SQUARE_KEYS_LOW[i * COUNTS + s[i]!]!;
    high ^= SQUARE_KEYS_HIGH[i * COUNTS + s[i]!]!;
  }
  if (node.toMove === 1) {
    low ^= MOVER_LOW;
    high ^= MOVER_HIGH;
  }
  key.low = low;
  key.high = high;
  return key;
}

export interface Entry {
  value: number;
  depth: number;
  bound: number;
  /** Move index (see moves.ts), or −1. */
  move: number;
}

/** Always-replace, one entry per slot: simple, and fresh entries matter most in iterative deepening. */
export class TranspositionTable {
  private readonly check: Int32Array;
  private readonly used: Uint8Array;
  private readonly values: Float64Array;
  private readonly depths: Int16Array;
  private readonly bounds: Uint8Array;
  private readonly moves: Int8Array;
  private readonly mask: number;

  constructor(bits = 18) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.check = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.values = new Float64Array(size);
    this.depths = new Int16Array(size);
    this.bounds = new Uint8Array(size);
    this.moves = new Int8Array(size);
  }

  probe(key: Key, entry: Entry): boolean {
    const slot = key.low & this.mask;
    if (this.used[slot] === 0 || this.check[slot] !== key.high) return false;
    entry.value = this.values[slot]!;
    entry.depth = this.depths[slot]!;
    entry.bound = this.bounds[slot]!;
    entry.move = this.moves[slot]!;
    return true;
  }

  store(key: Key, value: number, depth: number, bound: number, move: number): void {
    const slot = key.low & this.mask;
    this.used[slot] = 1;
    this.check[slot] = key.high;
    this.values[slot] = value;
    this.depths[slot] = depth;
    this.bounds[slot] = bound;
    this.moves[slot] = move;
  }
}
