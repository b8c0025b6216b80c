import type { Counters } from '../limits/counters.js';

/**
 * Open connections per key (a player id, an address), refused past a limit.
 * Each connection holds its place by its socket's id in the counters store:
 * with Redis, every process behind the load balancer counts against the
 * same limit; without, each process counts its own.
 */
export class ConnectionSlots {
  constructor(
    readonly limit: number,
    private readonly places: Counters,
    private readonly kind: 'player' | 'address',
  ) {}

  /** Takes a slot for `key` on behalf of the socket `holder`; false, and nothing taken, when its slots are all held. */
  take(key: string, holder: string): Promise<boolean> {
    return this.places.hold(this.placeOf(key), holder, this.limit);
  }

  give(key: string, holder: string): void {
    void this.places.release(this.placeOf(key), holder);
  }

  private placeOf(key: string): string {
    return `sockets:${this.kind}:${key}`;
  }
}
