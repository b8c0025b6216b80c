import { AddressAllowances } from './address-allowances.js';
import { PeopleFirst } from './people-first.js';
import { LaneFull, YieldingLane, type YieldingLaneOptions } from './yielding-lane.js';

export interface MoveRates {
  /** A person's moves against the computer per address and second taken as soon as they come. */
  readonly perSecond: number;
  /**
   * The most taken per address and second at all: beyond, a move waits for
   * its turn at this rate, so what one address's games against the computer
   * cost the server each second is bounded however fast its scripts play.
   */
  readonly ceilingPerSecond: number;
}

/**
 * The order in which this process takes people's moves: a move between
 * people at once (counted, so that computer games' work waits for it); a
 * person's move in a game against the computer at once too while its address
 * stays within `perSecond` such moves (a few hundred people behind one
 * address playing at a person's pace), and beyond that rate in a yielding
 * lane of its own, behind people's moves and in turn with other addresses;
 * beyond `ceilingPerSecond` it first waits for its turn at that rate (at
 * most the lane's `boundPerKey` moves of an address wait so; more are
 * refused as BUSY). Only the order changes: a move that waits is charged to
 * its player's clock up to its arrival, as any other.
 */
export class MovePriority {
  readonly people = new PeopleFirst();
  private readonly lane: YieldingLane;
  private readonly allowances: AddressAllowances;
  private readonly ceiling: AddressAllowances;
  private readonly maxPaced: number;
  /** Moves against the computer that went to the lane, beyond their address's rate. */
  deferred = 0;
  /** Moves against the computer that waited for their turn at the ceiling rate. */
  paced = 0;

  constructor(
    /** Whether a match has a computer seat, as far as this process knows. */
    private readonly againstComputer: (matchId: string) => boolean,
    rates: MoveRates,
    lane: YieldingLaneOptions,
    now: () => number = Date.now,
  ) {
    this.lane = new YieldingLane(lane, this.people, now);
    this.allowances = new AddressAllowances(rates.perSecond, now);
    this.ceiling = new AddressAllowances(Math.max(rates.perSecond, rates.ceilingPerSecond), now);
    this.maxPaced = lane.boundPerKey;
  }

  /** Moves of games against the computer waiting for their turn. */
  get waiting(): number {
    return this.lane.waiting;
  }

  /** Runs `move` (the match service's) in its order; refused as BUSY when the lane is full. */
  async move<T>(matchId: string, address: string, move: () => Promise<T>): Promise<T> {
    if (!this.againstComputer(matchId)) return this.people.around(move);
    const wait = this.ceiling.reserve(address, this.maxPaced);
    if (wait === undefined) throw new LaneFull();
    if (wait > 0) {
      this.paced++;
      await new Promise((resolve) => setTimeout(resolve, wait));
    } else if (this.allowances.tryTake(address)) return move();
    this.deferred++;
    return (await this.lane.run(address, move)) as T;
  }
}
