// The endgame solver's table, keyed on the full R4.5 state packed exactly
// into three integers, so no hashing collision can hand a node another
// position's value:
//   x = squares 0–4, 6 bits each, and the mover at bit 30
//   y = squares 5–9
//   z = square 10, player 0's captured dân (6 bits), both debts (8 bits
//       each) and the quan pieces (2 bits)
// Square 11 follows from the rest: the dân in play never change in a game.
// Beside the state, an entry holds the context it was solved in: a sum of
// hashes of the line's earlier states that a repetition could still meet
// (those since the last change of quan pieces or debts, which never come
// back). A value depends on that multiset, so it is reused only under the
// same one; the context is a 32-bit hash, the one place a collision could
// mix two entries up.
// A value is stored relative to what the mover has banked (captured quan
// pieces are in `banked` but not in the key) and is read at the ply it was
// found at only, since the ply limit (R4.4) can cut its lines elsewhere.
// That costs little: under one context, a state recurs at one ply mostly.

import type { ExactNode } from './exact-node.js';

export const BOUND_EXACT = 0;
export const BOUND_LOWER = 1;
export const BOUND_UPPER = 2;

/** Debts fit in 8 bits of the key; past that the solver keeps no entry. */
export const MAX_KEYED_DEBT = 255;

export interface ExactKey {
  x: number;
  y: number;
  z: number;
  /** The repetition context (see above). */
  context: number;
}

export function exactKeyOf<K extends Omit<ExactKey, 'context'>>(node: ExactNode, key: K): K {
  const s = node.squares;
  key.x = s[0]! | (s[1]! << 6) | (s[2]! << 12) | (s[3]! << 18) | (s[4]! << 24) | (node.toMove << 30);
  key.y = s[5]! | (s[6]! << 6) | (s[7]! << 12) | (s[8]! << 18) | (s[9]! << 24);
  key.z = s[10]! | (node.dan0 << 6) | (Math.min(node.debt0, MAX_KEYED_DEBT) << 12) | (Math.min(node.debt1, MAX_KEYED_DEBT) << 20) | (node.quan << 28);
  return key;
}

export interface ExactEntry {
  value: number;
  bound: number;
  move: number;
  /** The ply the value was found at. */
  ply: number;
}

export class EndgameTable {
  private readonly xs: Int32Array;
  private readonly ys: Int32Array;
  private readonly zs: Int32Array;
  private readonly contexts: Int32Array;
  private readonly values: Int16Array;
  private readonly bounds: Int8Array;
  private readonly moves: Int8Array;
  private readonly plies: Int16Array;
  private readonly mask: number;

  constructor(bits = 18) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.xs = new Int32Array(size);
    this.ys = new Int32Array(size);
    // −1 marks a free slot: no key has every z bit set.
    this.zs = new Int32Array(size).fill(-1);
    this.contexts = new Int32Array(size);
    this.values = new Int16Array(size);
    this.bounds = new Int8Array(size);
    this.moves = new Int8Array(size);
    this.plies = new Int16Array(size);
  }

  probe(key: ExactKey, entry: ExactEntry): boolean {
    const slot = slotOf(key) & this.mask;
    if (this.zs[slot] !== key.z || this.xs[slot] !== key.x || this.ys[slot] !== key.y || this.contexts[slot] !== key.context) return false;
    entry.value = this.values[slot]!;
    entry.bound = this.bounds[slot]!;
    entry.move = this.moves[slot]!;
    entry.ply = this.plies[slot]!;
    return true;
  }

  store(key: ExactKey, value: number, bound: number, move: number, ply: number): void {
    const slot = slotOf(key) & this.mask;
    this.xs[slot] = key.x;
    this.ys[slot] = key.y;
    this.zs[slot] = key.z;
    this.contexts[slot] = key.context;
    this.values[slot] = value;
    this.bounds[slot] = bound;
    this.moves[slot] = move;
    this.plies[slot] = ply;
  }
}

function slotOf(key: ExactKey): number {
  return stateHash(key.x, key.y, key.z) ^ key.context;
}

/** A well-mixed 32-bit hash of a packed state. */
export function stateHash(x: number, y: number, z: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  return h ^ (h >>> 13);
}
