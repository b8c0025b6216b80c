import { ErrorCode } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { PeopleFirst } from './people-first.js';

export interface YieldingLaneOptions {
  /** Tasks running at once. */
  readonly width: number;
  /** Tasks waiting at once, all keys together; beyond it a task is refused (LaneFull). */
  readonly bound: number;
  /** Tasks one key may have waiting at once. */
  readonly boundPerKey: number;
  /** A task that has waited this long starts even while people's work is pending, so it cannot starve. */
  readonly maxWaitMs: number;
}

/** Refused because the lane holds as much as it may: the caller is told the server is busy. */
export class LaneFull extends ServiceError {
  constructor() {
    // Refused by the thousand under an attack, and always from the same place: capturing a stack each time cost more than the work refused.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(ErrorCode.Busy, 'The server is busy; send the move again in a moment', 503);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

interface Waiting {
  readonly since: number;
  readonly start: () => void;
}

/**
 * Work of games against the computer, at a lower priority than people's
 * moves. At most `width` tasks run at once; the rest wait in one line per
 * key (the address that started the game or made the move), and a free place
 * goes to the keys in turn, so one address waits behind itself. A task is
 * started from a setImmediate callback, one per turn of the event loop, so
 * the sockets are read between two starts; and it is started only while no
 * person's move is in flight (PeopleFirst), unless it has waited
 * `maxWaitMs`. The waiting tasks are bounded, in all and per key.
 */
export class YieldingLane {
  private busy = 0;
  private count = 0;
  /** The keys in the order their turn comes (a Map keeps insertion order). */
  private readonly lines = new Map<string, Waiting[]>();
  private scheduled = false;
  private agingTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: YieldingLaneOptions,
    private readonly people: PeopleFirst,
    private readonly now: () => number = Date.now,
  ) {
    people.onIdle(() => this.schedule());
  }

  /** Tasks waiting for a place. */
  get waiting(): number {
    return this.count;
  }

  /**
   * Runs `task` in its turn; undefined, without running it, if `deadlineAt`
   * (epoch ms) passes first. Throws LaneFull, without waiting, when the lane
   * or the key's line is full.
   */
  async run<T>(key: string, task: () => Promise<T>, deadlineAt = Infinity): Promise<T | undefined> {
    if (!(await this.place(key, deadlineAt))) return undefined;
    try {
      return await task();
    } finally {
      this.busy--;
      this.schedule();
    }
  }

  private place(key: string, deadlineAt: number): Promise<boolean> {
    const line = this.lines.get(key) ?? [];
    if (this.count >= this.options.bound || line.length >= this.options.boundPerKey) return Promise.reject(new LaneFull());
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiting: Waiting = {
        since: this.now(),
        start: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      line.push(waiting);
      this.lines.set(key, line);
      this.count++;
      this.schedule();
      if (deadlineAt === Infinity) return;
      timer = setTimeout(() => {
        const at = line.indexOf(waiting);
        if (at < 0) return;
        line.splice(at, 1);
        this.count--;
        if (line.length === 0 && this.lines.get(key) === line) this.lines.delete(key);
        resolve(false);
      }, Math.max(0, deadlineAt - this.now()));
    });
  }

  private schedule(): void {
    if (this.scheduled || this.count === 0 || this.busy >= this.options.width) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  /** Starts at most one task, if there is a place and people's work lets it; then looks again on the next turn. */
  private drain(): void {
    if (this.count === 0 || this.busy >= this.options.width) return;
    if (this.people.busy()) {
      const waited = this.now() - this.oldest();
      if (waited < this.options.maxWaitMs) {
        // Looked at again when people's work is done (PeopleFirst's idle), or when the oldest has waited long enough.
        this.agingTimer ??= setTimeout(() => {
          this.agingTimer = undefined;
          this.schedule();
        }, this.options.maxWaitMs - waited).unref();
        return;
      }
    }
    const [key, line] = this.lines.entries().next().value!;
    // This key goes to the back of the turns.
    this.lines.delete(key);
    const next = line.shift()!;
    if (line.length > 0) this.lines.set(key, line);
    this.count--;
    this.busy++;
    next.start();
    this.schedule();
  }

  /** When the longest-waiting task began to wait: the oldest of each line is its first. */
  private oldest(): number {
    let oldest = Infinity;
    for (const line of this.lines.values()) oldest = Math.min(oldest, line[0]!.since);
    return oldest;
  }
}
