import type { FastifyBaseLogger } from 'fastify';
import { forgoableRedisClient } from '../redis-client.js';
import { redisNames } from '../redis-names.js';
import { MemoryCounters, type Counted, type Counters } from './counters.js';

// One round trip each, and atomic: two processes counting at once never lose a count.
const ADD = `local v = redis.call('INCR', KEYS[1]) redis.call('PEXPIRE', KEYS[1], ARGV[1]) return v`;
const COUNT = `local v = redis.call('INCR', KEYS[1]) if v == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {v, redis.call('PTTL', KEYS[1])}`;
// Places are a sorted set of holders, each scored with the time (Redis's own clock) its place lapses unless renewed.
const NOW = `local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)`;
const HOLD = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[3]) return 1`;
const RENEW = `${NOW}
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])`;
const HOLDERS = `${NOW} return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')`;
const GET = `local v = redis.call('GET', KEYS[1]) if not v then return {0, 0} end return {tonumber(v), redis.call('PTTL', KEYS[1])}`;

/** A place held lapses this long after its process last renewed it: a process that dies frees its places by then. */
const PLACE_KEPT_MS = 60_000;

/** Longer than Redis takes on a loaded machine; a limit that waits longer falls back to this process's count. */
const ANSWER_WITHIN_MS = 1000;

/**
 * Counters every server process shares, in Redis: a budget is the cluster's,
 * not each node's, so three nodes do not give three times the guesses.
 * While Redis cannot be reached (or does not answer in time), each process
 * counts in its own memory, as a lone process would, and nothing is refused
 * for want of Redis.
 */
export class SharedCounters implements Counters {
  private readonly client;
  private readonly local: MemoryCounters;
  /** The places this process holds in Redis, renewed while it lives. */
  private readonly holding = new Map<string, Set<string>>();
  private readonly renewal: NodeJS.Timeout;
  /** Before every key: the deployment's own (REDIS_PREFIX). */
  private readonly prefix: string;
  private readonly placeKeptMs: number;

  constructor(url: string, log: FastifyBaseLogger, { prefix = redisNames().limits, now = Date.now, placeKeptMs = PLACE_KEPT_MS } = {}) {
    this.prefix = prefix;
    this.placeKeptMs = placeKeptMs;
    this.local = new MemoryCounters(now);
    this.client = forgoableRedisClient(url, log, 'limits store unreachable: each process counts its own');
    this.renewal = setInterval(() => void this.renew(), placeKeptMs / 3).unref();
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  add(key: string, ttlMs: number): Promise<number> {
    return this.shared(async () => Number(await this.run(ADD, key, ttlMs)), () => this.local.add(key, ttlMs));
  }

  count(key: string, windowMs: number): Promise<Counted> {
    return this.shared(async () => counted(await this.run(COUNT, key, windowMs)), () => this.local.count(key, windowMs));
  }

  get(key: string): Promise<Counted> {
    return this.shared(async () => counted(await this.run(GET, key)), () => this.local.get(key));
  }

  set(key: string, value: number, ttlMs: number): Promise<void> {
    return this.shared(
      async () => void (await this.client.sendCommand(['SET', this.prefix + key, String(value), 'PX', String(Math.max(1, Math.ceil(ttlMs)))])),
      () => this.local.set(key, value, ttlMs),
    );
  }

  delete(key: string): Promise<void> {
    return this.shared(async () => void (await this.client.sendCommand(['DEL', this.prefix + key])), () => this.local.delete(key));
  }

  hold(key: string, holder: string, limit: number): Promise<boolean> {
    return this.shared(
      async () => {
        const held = Number(await this.client.sendCommand(['EVAL', HOLD, '1', this.prefix + key, holder, String(limit), String(this.placeKeptMs)])) === 1;
        if (held) this.holding.set(key, (this.holding.get(key) ?? new Set<string>()).add(holder));
        return held;
      },
      () => this.local.hold(key, holder, limit),
    );
  }

  async release(key: string, holder: string): Promise<void> {
    const holders = this.holding.get(key);
    if (holders?.delete(holder) && holders.size === 0) this.holding.delete(key);
    // Taken here while Redis was away, or in Redis; should Redis not hear of it, the place lapses unrenewed.
    await this.local.release(key, holder);
    await this.shared(async () => void (await this.client.sendCommand(['ZREM', this.prefix + key, holder])), async () => {});
  }

  async holders(key: string): Promise<string[]> {
    const local = await this.local.holders(key);
    const shared = await this.shared(async () => (await this.run(HOLDERS, key)) as unknown as string[], async () => []);
    return [...new Set([...shared, ...local])];
  }

  async close(): Promise<void> {
    clearInterval(this.renewal);
    if (this.client.isReady) await this.client.close();
    else if (this.client.isOpen) this.client.destroy();
  }

  private async renew(): Promise<void> {
    if (!this.client.isReady) return;
    const renewals = [...this.holding].map(([key, holders]) =>
      this.client.sendCommand(['EVAL', RENEW, '1', this.prefix + key, String(this.placeKeptMs), ...holders]),
    );
    await Promise.allSettled(renewals);
  }

  private run(script: string, key: string, ms?: number) {
    const args = ms === undefined ? [] : [String(Math.max(1, Math.ceil(ms)))];
    return this.client.sendCommand(['EVAL', script, '1', this.prefix + key, ...args]);
  }

  private async shared<T>(remote: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (!this.client.isReady) return local();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Redis did not answer in time')), ANSWER_WITHIN_MS);
    });
    try {
      return await Promise.race([remote(), late]);
    } catch {
      return local();
    } finally {
      clearTimeout(timer);
    }
  }
}

function counted(reply: unknown): Counted {
  const [value, ttlMs] = reply as [number, number];
  return { value: Number(value), ttlMs: Math.max(0, Number(ttlMs)) };
}
