import { PeopleFirst } from './people-first.js';
import { YieldingLane, type YieldingLaneOptions } from './yielding-lane.js';

/** Addresses whose rate is remembered at once; past it the ones with a full allowance are forgotten (they lose nothing). */
const ADDRESSES_KEPT = 10_000;

/**
 * The order in which this process takes people's moves: a move between
 * people at once (counted, so that computer games' work waits for it); a
 * person's move in a game against the computer at once too while its address
 * stays within `perSecond` such moves (a few hundred people behind one
 * address playing at a person's pace), and beyond that rate in a yielding
 * lane of its own, behind people's moves and in turn with other addresses.
 * Only the order changes: a move that waits is charged to its player's clock
 * up to its arrival, as any other.
 */
export class MovePriority {
  readonly people = new PeopleFirst();
  private readonly lane: YieldingLane;
  private readonly allowances = new Map<string, { tokens: number; at: number }>();
  /** Moves against the computer that went to the lane, beyond their address's rate. */
  deferred = 0;

  constructor(
    /** Whether a match has a computer seat, as far as this process knows. */
    private readonly againstComputer: (matchId: string) => boolean,
    private readonly perSecond: number,
    lane: YieldingLaneOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.lane = new YieldingLane(lane, this.people, now);
  }

  /** Moves of games against the computer waiting for their turn. */
  get waiting(): number {
    return this.lane.waiting;
  }

  /** Runs `move` (the match service's) in its order; refused as BUSY when the lane is full. */
  async move<T>(matchId: string, address: string, move: () => Promise<T>): Promise<T> {
    if (!this.againstComputer(matchId)) return this.people.around(move);
    if (this.allowed(address)) return move();
    this.deferred++;
    return (await this.lane.run(address, move)) as T;
  }

  /** Takes one of the address's allowance of moves against the computer, refilled at `perSecond` up to a second's worth. */
  private allowed(address: string): boolean {
    const now = this.now();
    const burst = this.perSecond;
    let allowance = this.allowances.get(address);
    if (!allowance) {
      if (this.allowances.size >= ADDRESSES_KEPT) this.forgetFull(now);
      allowance = { tokens: burst, at: now };
      this.allowances.set(address, allowance);
    }
    allowance.tokens = Math.min(burst, allowance.tokens + ((now - allowance.at) / 1000) * this.perSecond);
    allowance.at = now;
    if (allowance.tokens < 1) return false;
    allowance.tokens -= 1;
    return true;
  }

  private forgetFull(now: number): void {
    for (const [address, allowance] of this.allowances) {
      if (allowance.tokens + ((now - allowance.at) / 1000) * this.perSecond >= this.perSecond) this.allowances.delete(address);
    }
    // Still full of addresses using their allowance: the longest-known go (a fresh allowance is the most they gain).
    for (const address of this.allowances.keys()) {
      if (this.allowances.size < ADDRESSES_KEPT) break;
      this.allowances.delete(address);
    }
  }
}
