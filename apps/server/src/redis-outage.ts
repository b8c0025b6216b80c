/**
 * Whether an unhandled rejection is Redis going away under the Redis
 * client: node-redis rejects promises that no command of ours holds when
 * Redis dies in the middle of its traffic (seen when Redis is killed under
 * load): an error of the client itself (a command's TimeoutError, …), or the
 * raw ECONNRESET or EPIPE of the socket's read or write, which it passes on
 * as is. Redis carries nothing the game needs to be right (broadcasts fall
 * back to the match feed, presence keeps what it had) and the client
 * reconnects by itself, so this is logged, not fatal. Any other unhandled
 * rejection still ends the process.
 */
export function isRedisOutage(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  if (/@redis[/+]client/.test(reason.stack ?? '')) return true;
  const { code, syscall } = reason as NodeJS.ErrnoException;
  return (code === 'ECONNRESET' || code === 'EPIPE') && (syscall === 'read' || syscall === 'write');
}
