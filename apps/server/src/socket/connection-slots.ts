/**
 * Open connections per key (a player id, an address), refused past a limit.
 * Counts this process's connections only: each process behind a load
 * balancer enforces its own limit.
 */
export class ConnectionSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes a slot for `key`; false, and nothing taken, when its slots are all held. */
  take(key: string): boolean {
    const count = this.held.get(key) ?? 0;
    if (count >= this.limit) return false;
    this.held.set(key, count + 1);
    return true;
  }

  give(key: string): void {
    const count = (this.held.get(key) ?? 0) - 1;
    if (count > 0) this.held.set(key, count);
    else this.held.delete(key);
  }

  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** Keys holding a slot; zero counts are forgotten, so this is bounded by the open connections. */
  get size(): number {
    return this.held.size;
  }
}
