import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ourCommands } from '../redis-outage.js';
import { forgoableRedisClient } from '../redis-client.js';
import { redisNames } from '../redis-names.js';

/**
 * Where each process shares who it has in a room: the distinct player ids of
 * its own sockets there. A process writes only its own entry and reads every
 * live process's entries of that room; nothing asks the other processes
 * anything, so a disconnect costs the same whatever the size of the cluster.
 */
export interface PresenceStore {
  /** Records this process's players in a room and returns every live process's, this one's included. */
  exchange(code: string, local: readonly string[]): Promise<string[][]>;
  /** Rooms that had players on processes that stopped answering, cleared from the store: their presence must be recomputed. */
  orphanedRooms(): Promise<string[]>;
  /**
   * Says this process is alive; entries of a process that stops saying so are
   * ignored, then swept. True when this process had been swept meanwhile (it
   * stalled past the limit): its rooms must be written again.
   */
  heartbeat(): Promise<boolean>;
  close(): Promise<void>;
}

/** One process without Redis: its own sockets are all there is. */
export class LocalPresenceStore implements PresenceStore {
  async exchange(_code: string, local: readonly string[]): Promise<string[][]> {
    return [[...local]];
  }
  async orphanedRooms(): Promise<string[]> {
    return [];
  }
  async heartbeat(): Promise<boolean> {
    return false;
  }
  async close(): Promise<void> {}
}

/** A room hash nobody touched for a day is gone, whatever else failed to clean it. */
const roomTtlMs = 24 * 3600 * 1000;

/**
 * Per room, a Redis hash of process id → JSON list of player ids; per
 * process, a heartbeat key that expires after `aliveMs` and the set of rooms
 * it has entries in, so that a survivor can clear a dead process's entries
 * and have those rooms recomputed (its players become absent, and the grace
 * period starts, unless they reconnected elsewhere).
 *
 * The client refuses commands at once while Redis is unreachable rather than
 * queueing them: a presence refresh then fails and is logged, and the match
 * keeps the absence it had recorded, instead of waiting in the room's queue.
 */
export class RedisPresenceStore implements PresenceStore {
  readonly node = randomBytes(8).toString('hex');
  private readonly client;
  private readonly roomKey: (code: string) => string;
  private readonly aliveKey: (node: string) => string;
  private readonly roomsOfKey: (node: string) => string;
  private readonly nodesKey: string;

  constructor(
    url: string,
    private readonly aliveMs: number,
    log: FastifyBaseLogger,
    /** Before every key: the deployment's own (REDIS_PREFIX). */
    prefix = redisNames().presence,
  ) {
    this.client = forgoableRedisClient(url, log, 'presence store unreachable');
    this.roomKey = (code) => `${prefix}room:${code}`;
    this.aliveKey = (node) => `${prefix}alive:${node}`;
    this.roomsOfKey = (node) => `${prefix}rooms-of:${node}`;
    this.nodesKey = `${prefix}nodes`;
  }

  async connect(): Promise<void> {
    await this.client.connect();
    await this.heartbeat();
  }

  async exchange(code: string, local: readonly string[]): Promise<string[][]> {
    const write = this.client.multi();
    if (local.length > 0) {
      write.hSet(this.roomKey(code), this.node, JSON.stringify(local));
      write.sAdd(this.roomsOfKey(this.node), code);
    } else {
      write.hDel(this.roomKey(code), this.node);
      write.sRem(this.roomsOfKey(this.node), code);
    }
    write.pExpire(this.roomKey(code), roomTtlMs);
    write.hGetAll(this.roomKey(code));
    const replies = await write.exec();
    const entries = replies.at(-1) as unknown as Record<string, string>;
    const others = Object.keys(entries).filter((node) => node !== this.node);
    const alive = others.length === 0 ? [] : await this.client.mGet(others.map(this.aliveKey));
    return Object.entries(entries)
      .filter(([node]) => node === this.node || alive[others.indexOf(node)] !== null)
      .map(([, ids]) => JSON.parse(ids) as string[]);
  }

  private beaten = false;

  async heartbeat(): Promise<boolean> {
    const [, added] = await this.client
      .multi()
      .set(this.aliveKey(this.node), '1', { expiration: { type: 'PX', value: this.aliveMs } })
      .sAdd(this.nodesKey, this.node)
      .exec();
    // Added again after the first beat: a survivor took this process for dead and cleared its entries.
    const swept = this.beaten && Number(added) === 1;
    this.beaten = true;
    return swept;
  }

  async orphanedRooms(): Promise<string[]> {
    const nodes = (await this.client.sMembers(this.nodesKey)).filter((node) => node !== this.node);
    if (nodes.length === 0) return [];
    const alive = await this.client.mGet(nodes.map(this.aliveKey));
    const rooms: string[] = [];
    for (const [i, node] of nodes.entries()) {
      if (alive[i] !== null) continue;
      // Several survivors may sweep the same process at once: each clears, each recomputes; both are idempotent.
      const codes = await this.client.sMembers(this.roomsOfKey(node));
      const clear = this.client.multi();
      for (const code of codes) clear.hDel(this.roomKey(code), node);
      clear.del(this.roomsOfKey(node));
      clear.sRem(this.nodesKey, node);
      await clear.exec();
      rooms.push(...codes);
    }
    return [...new Set(rooms)];
  }

  async close(): Promise<void> {
    if (this.client.isReady) await this.client.close();
    else if (this.client.isOpen) this.client.destroy();
  }
}

/** A Redis store, connected, logging one line per outage. A process is taken for dead after three missed beats. */
export async function connectedPresenceStore(url: string, heartbeatMs: number, log: FastifyBaseLogger, prefix?: string): Promise<RedisPresenceStore> {
  const store = ourCommands(new RedisPresenceStore(url, 3 * heartbeatMs, log, prefix));
  await store.connect();
  return store;
}
