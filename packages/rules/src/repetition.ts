// R4.5 Repetition: how often each state has occurred, the start included.
//
// The R4.5 state is the board, both quan flags, both captured stocks, both
// debts and the mover. Quan pieces only ever leave the board and debts only
// grow, so once either changes no earlier state can come back: the history
// starts afresh there and its key leaves them out. The dân in play never
// change within a game, so square 11 follows from the rest and is left out
// too. What remains (eleven squares and two stocks of at most 50, 6 bits
// each, and the mover) packs exactly into three 31-bit integers: equal keys
// are equal states, no hashing collision can fake a repetition.
//
// Keys live in an append-only log shared along a line of play. A
// `RepetitionHistory` is a prefix of its log: appending to a log never
// changes what an existing history contains, so a history is immutable.
// Extending a history that is not the log's newest entry (playing on from
// an earlier state: a branch) copies its prefix into a new log first, which
// costs one pass over that prefix but keeps the ordinary line of play free
// of copies.

/**
 * Below this many entries a linear scan beats hashing; most stretches of
 * play between irreversible changes are shorter than this.
 */
const SCAN_LIMIT = 32;

class KeyLog {
  /** Three integers per entry, in the order the states occurred. */
  readonly keys: number[] = [];
  /** Per entry: how often its key had occurred up to and including it. */
  readonly counts: number[] = [];
  size = 0;
  /**
   * Open addressing over the entries once the log outgrows a linear scan:
   * entry index + 1 of a key's latest occurrence, 0 = free.
   */
  private slots: number[] | null = null;

  /**
   * Appends a key and returns how often it has now occurred. `seen` false
   * promises the key is new (see `RepetitionHistory`), which spares the scan.
   */
  add(x: number, y: number, z: number, h: number, seen: boolean): number {
    const entry = this.size++;
    const keys = this.keys;
    keys[3 * entry] = x;
    keys[3 * entry + 1] = y;
    keys[3 * entry + 2] = z;
    let count = 1;
    if (this.slots !== null) {
      const previous = this.index(x, y, z, h, entry);
      if (previous >= 0) count = this.counts[previous]! + 1;
    } else {
      if (seen) {
        const previous = this.scan(x, y, z, entry);
        if (previous >= 0) count = this.counts[previous]! + 1;
      }
      if (this.size > SCAN_LIMIT) this.reindex(4 * SCAN_LIMIT);
    }
    this.counts[entry] = count;
    return count;
  }

  /** A new log holding the first `size` entries of this one. */
  prefix(size: number): KeyLog {
    const log = new KeyLog();
    const keys = this.keys;
    for (let i = 0; i < 3 * size; i += 3) {
      const x = keys[i]!;
      const y = keys[i + 1]!;
      const z = keys[i + 2]!;
      log.add(x, y, z, hash(x, y, z), true);
    }
    return log;
  }

  /**
   * The latest entry before `entry` holding the key, or −1. The mover is
   * part of the key and changes every ply (R4.1), so only every other entry
   * can match.
   */
  private scan(x: number, y: number, z: number, entry: number): number {
    const keys = this.keys;
    for (let e = entry - 2; e >= 0; e -= 2) {
      const i = 3 * e;
      if (keys[i] === x && keys[i + 1] === y && keys[i + 2] === z) return e;
    }
    return -1;
  }

  /** Like `scan`, through the hash index, which it points at `entry` from now on. */
  private index(x: number, y: number, z: number, h: number, entry: number): number {
    const slots = this.slots!;
    const keys = this.keys;
    const mask = slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const found = slots[slot]!;
      if (found === 0) break;
      const i = 3 * (found - 1);
      if (keys[i] === x && keys[i + 1] === y && keys[i + 2] === z) {
        slots[slot] = entry + 1;
        return found - 1;
      }
      slot = (slot + 1) & mask;
    }
    slots[slot] = entry + 1;
    if (2 * this.size > slots.length) this.reindex(2 * slots.length);
    return -1;
  }

  private reindex(capacity: number): void {
    const slots = new Array<number>(capacity).fill(0);
    const keys = this.keys;
    const mask = capacity - 1;
    // Newest first, so each key's slot points at its latest entry.
    for (let entry = this.size - 1; entry >= 0; entry--) {
      const i = 3 * entry;
      const x = keys[i]!;
      const y = keys[i + 1]!;
      const z = keys[i + 2]!;
      let slot = hash(x, y, z) & mask;
      for (;;) {
        const found = slots[slot]!;
        if (found === 0) {
          slots[slot] = entry + 1;
          break;
        }
        const j = 3 * (found - 1);
        if (keys[j] === x && keys[j + 1] === y && keys[j + 2] === z) break;
        slot = (slot + 1) & mask;
      }
    }
    this.slots = slots;
  }
}

function hash(x: number, y: number, z: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  return h ^ (h >>> 13);
}

/** The hash bit choosing which half of the filter a key's bit goes to. */
const FILTER_HALF = 1 << 26;

/**
 * The states of a line of play since its last irreversible change. Each
 * history also carries a 64-bit filter of its keys' hashes (two 32-bit
 * halves): a key whose bit is clear has certainly not occurred, which most
 * plies are, and needs no search. A set bit only means "search".
 */
export class RepetitionHistory {
  readonly #log: KeyLog;
  readonly #filterLow: number;
  readonly #filterHigh: number;
  /** States recorded since the last irreversible change (since the start, at first). */
  readonly length: number;
  /** How often the newest state has occurred, itself included. */
  readonly count: number;

  private constructor(log: KeyLog, length: number, count: number, filterLow: number, filterHigh: number) {
    this.#log = log;
    this.length = length;
    this.count = count;
    this.#filterLow = filterLow;
    this.#filterHigh = filterHigh;
  }

  /** A history holding one state: the start of a game, or the first state after an irreversible change. */
  static start(squares: readonly number[], dan0: number, dan1: number, mover: number): RepetitionHistory {
    const x = keyX(squares);
    const y = keyY(squares);
    const z = keyZ(squares, dan0, dan1, mover);
    const h = hash(x, y, z);
    const log = new KeyLog();
    log.add(x, y, z, h, false);
    const bit = 1 << (h >>> 27);
    return (h & FILTER_HALF) === 0
      ? new RepetitionHistory(log, 1, 1, bit, 0)
      : new RepetitionHistory(log, 1, 1, 0, bit);
  }

  /** This history with one more state. */
  extend(squares: readonly number[], dan0: number, dan1: number, mover: number): RepetitionHistory {
    const x = keyX(squares);
    const y = keyY(squares);
    const z = keyZ(squares, dan0, dan1, mover);
    const h = hash(x, y, z);
    // The top six bits of the hash pick the filter bit, the low ones the
    // index slot, so the two stay independent.
    const bit = 1 << (h >>> 27);
    const high = (h & FILTER_HALF) !== 0;
    const seen = ((high ? this.#filterHigh : this.#filterLow) & bit) !== 0;
    let log = this.#log;
    if (log.size !== this.length) log = log.prefix(this.length);
    const count = log.add(x, y, z, h, seen);
    return new RepetitionHistory(
      log,
      this.length + 1,
      count,
      high ? this.#filterLow : this.#filterLow | bit,
      high ? this.#filterHigh | bit : this.#filterHigh,
    );
  }

  /**
   * The states recorded, oldest first, repeats included: for a search that
   * counts R4.5 occurrences itself. Quan flags and debts are those of the
   * newest state (the history starts afresh when they change); square 11 is
   * rebuilt from the dân in play, `totalDan`.
   */
  states(totalDan: number): RecordedState[] {
    const keys = this.#log.keys;
    const states: RecordedState[] = [];
    for (let entry = 0; entry < this.length; entry++) {
      const x = keys[3 * entry]!;
      const y = keys[3 * entry + 1]!;
      const z = keys[3 * entry + 2]!;
      const squares = [x, x >>> 6, x >>> 12, x >>> 18, y, y >>> 6, y >>> 12, y >>> 18, z, z >>> 6, z >>> 12].map((v) => v & 63);
      const dan0 = (z >>> 18) & 63;
      const dan1 = (z >>> 24) & 63;
      squares.push(totalDan - dan0 - dan1 - squares.reduce((a, b) => a + b, 0));
      states.push({ squares, dan0, dan1, mover: (z >>> 30) & 1 });
    }
    return states;
  }
}

/** One R4.5 state of a history (see `RepetitionHistory.states`). */
export interface RecordedState {
  readonly squares: readonly number[];
  readonly dan0: number;
  readonly dan1: number;
  readonly mover: number;
}

function keyX(s: readonly number[]): number {
  return s[0]! | (s[1]! << 6) | (s[2]! << 12) | (s[3]! << 18);
}

function keyY(s: readonly number[]): number {
  return s[4]! | (s[5]! << 6) | (s[6]! << 12) | (s[7]! << 18);
}

function keyZ(s: readonly number[], dan0: number, dan1: number, mover: number): number {
  return s[8]! | (s[9]! << 6) | (s[10]! << 12) | (dan0 << 18) | (dan1 << 24) | (mover << 30);
}
