/**
 * Every name the server gives a key or a channel in Redis, each beginning
 * with the deployment's REDIS_PREFIX: two deployments sharing one Redis then
 * share nothing, neither their limits nor their presence, broadcasts or
 * messages between processes. The prefix is empty by default, which gives
 * the names used before there was one.
 */
export interface RedisNames {
  /** The counters of the limits that protect people (limits/shared-counters.ts). */
  limits: string;
  /** Who is in each room, per process (presence/presence-store.ts). */
  presence: string;
  /** The processes' own channel (committed match events, redis-adapter.ts). */
  processes: string;
  /** The Socket.IO adapter's stream, its channels and its sessions. */
  adapter: { streamName: string; channelPrefix: string; sessionKeyPrefix: string };
}

export function redisNames(prefix = ''): RedisNames {
  return {
    limits: `${prefix}oanquan:limit:`,
    presence: `${prefix}presence:`,
    processes: `${prefix}oanquan:processes`,
    adapter: { streamName: `${prefix}socket.io`, channelPrefix: `${prefix}socket.io`, sessionKeyPrefix: `${prefix}sio:session:` },
  };
}
