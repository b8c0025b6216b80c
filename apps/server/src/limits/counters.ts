/** A counter's value and how much longer it is kept; a forgotten counter reads as zero, kept for 0 ms. */
export interface Counted {
  value: number;
  ttlMs: number;
}

/**
 * Counters that forget: what the limits protecting people count (failed
 * sign-ins, waits imposed, calls in a window). MemoryCounters keeps them in
 * this process; SharedCounters in Redis, for every process at once.
 */
export interface Counters {
  /** Adds one to the counter, which is then kept ttlMs from now; answers its new value. */
  add(key: string, ttlMs: number): Promise<number>;
  /** Adds one to the counter of a fixed window that began with its first count and lasts windowMs; answers the count and the window's time left. */
  count(key: string, windowMs: number): Promise<Counted>;
  get(key: string): Promise<Counted>;
  /** Sets the counter to value, kept ttlMs from now. */
  set(key: string, value: number, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Takes one of at most `limit` places under the key for `holder` (a socket's id, …); false, and nothing taken, when they are all held. */
  hold(key: string, holder: string, limit: number): Promise<boolean>;
  /** Gives back the holder's place, whichever process took it; a place never given back (its process died) lapses in the shared store. */
  release(key: string, holder: string): Promise<void>;
  /** Who holds a place under the key. */
  holders(key: string): Promise<string[]>;
}

/** Forgotten counters are swept every this many writes, so keys strangers invent cannot pile up. */
const SWEEP_EVERY = 1024;

export class MemoryCounters implements Counters {
  private readonly entries = new Map<string, { value: number; expiresAt: number }>();
  private readonly places = new Map<string, Set<string>>();
  private writes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async add(key: string, ttlMs: number): Promise<number> {
    const value = (await this.get(key)).value + 1;
    await this.set(key, value, ttlMs);
    return value;
  }

  async count(key: string, windowMs: number): Promise<Counted> {
    const { value, ttlMs } = await this.get(key);
    if (value === 0) {
      await this.set(key, 1, windowMs);
      return { value: 1, ttlMs: windowMs };
    }
    await this.set(key, value + 1, ttlMs);
    return { value: value + 1, ttlMs };
  }

  async get(key: string): Promise<Counted> {
    const entry = this.entries.get(key);
    const ttlMs = entry ? entry.expiresAt - this.now() : 0;
    return ttlMs > 0 ? { value: entry!.value, ttlMs } : { value: 0, ttlMs: 0 };
  }

  async set(key: string, value: number, ttlMs: number): Promise<void> {
    if (++this.writes % SWEEP_EVERY === 0) this.sweep();
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async hold(key: string, holder: string, limit: number): Promise<boolean> {
    const holders = this.places.get(key) ?? new Set<string>();
    if (holders.size >= limit) return false;
    this.places.set(key, holders.add(holder));
    return true;
  }

  async release(key: string, holder: string): Promise<void> {
    const holders = this.places.get(key);
    if (!holders) return;
    holders.delete(holder);
    if (holders.size === 0) this.places.delete(key);
  }

  async holders(key: string): Promise<string[]> {
    return [...(this.places.get(key) ?? [])];
  }

  /** Keys with a place held; emptied keys are forgotten, so this is bounded by the places held. */
  get placesHeld(): number {
    return this.places.size;
  }

  /** How many counters are held, forgotten ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
