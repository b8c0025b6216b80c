import { TokenBucket } from './token-bucket.js';

interface Entry {
  bucket: TokenBucket;
  usedAt: number;
}

/**
 * One token bucket per player, shared by every socket of that player on this
 * process, so opening more sockets buys no more messages. A bucket left
 * alone long enough to fill up again is no different from a new one, so it
 * is forgotten; `maxPlayers` bounds the map whatever happens.
 */
export class PlayerRateLimiter {
  /** Least recently used first: Map keeps insertion order and each use re-inserts. */
  private readonly entries = new Map<string, Entry>();
  private readonly refillMs: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly maxPlayers = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.refillMs = (burst / perSecond) * 1000;
  }

  take(playerId: string): boolean {
    const now = this.now();
    const entry = this.entries.get(playerId) ?? { bucket: new TokenBucket(this.burst, this.perSecond, this.now), usedAt: now };
    this.entries.delete(playerId);
    this.forgetIdle(now);
    entry.usedAt = now;
    this.entries.set(playerId, entry);
    return entry.bucket.take();
  }

  get size(): number {
    return this.entries.size;
  }

  private forgetIdle(now: number): void {
    for (const [playerId, entry] of this.entries) {
      if (this.entries.size < this.maxPlayers && now - entry.usedAt < this.refillMs) return;
      this.entries.delete(playerId);
    }
  }
}
