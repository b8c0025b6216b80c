/**
 * Whether an unhandled rejection is node-redis giving up on a write because
 * Redis vanished in the middle of it: the socket's ECONNRESET or EPIPE,
 * raised from the client's own write loop, which no command of ours holds
 * (seen when Redis is killed under load). The client reconnects by itself
 * and each of our commands handles its own failure, so this one is logged,
 * not fatal; any other unhandled rejection still ends the process.
 */
export function isLostRedisWrite(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const code = (reason as NodeJS.ErrnoException).code;
  return (code === 'ECONNRESET' || code === 'EPIPE') && /@redis[/+]client/.test(reason.stack ?? '');
}
