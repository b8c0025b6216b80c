/**
 * Whether an unhandled rejection is Redis going away under the Redis
 * client: node-redis rejects promises that no command of ours holds when
 * Redis dies in the middle of its traffic (seen when Redis is killed under
 * load): an error of the client itself (a command's TimeoutError, …), or the
 * raw ECONNRESET or EPIPE of the socket's read or write, which it passes on
 * as is. Redis carries nothing the game needs to be right (broadcasts fall
 * back to the match feed, presence keeps what it had) and the client
 * reconnects by itself, so this is logged, not fatal. Any other unhandled
 * rejection still ends the process, a command of ours above all: its failure
 * is ours to handle where it is made (see `ourCommands`), and one left
 * unhandled is a bug however much it looks like an outage.
 */
export function isRedisOutage(reason: unknown): boolean {
  if (!(reason instanceof Error) || reason instanceof RedisCommandError) return false;
  if (/@redis[/+]client/.test(reason.stack ?? '')) return true;
  const { code, syscall } = reason as NodeJS.ErrnoException;
  return (code === 'ECONNRESET' || code === 'EPIPE') && (syscall === 'read' || syscall === 'write');
}

/** A command of ours that Redis failed; `cause` is the client's error. */
export class RedisCommandError extends Error {
  constructor(cause: unknown) {
    super(`Redis command failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RedisCommandError';
  }
}

/**
 * The object through which we talk to Redis (a store), its failures made
 * our own: every promise its methods return rejects with a RedisCommandError
 * of its own, never with the client's error object, which the client may
 * also have used for a promise of its own that nobody holds.
 */
export function ourCommands<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(object, args);
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              throw new RedisCommandError(error);
            })
          : result;
      };
    },
  });
}
