/**
 * Whether an error means "the database cannot be reached right now" (or
 * cannot take one more connection for the moment) rather than "this request
 * is wrong" or "the code is wrong". Such errors come in
 * many shapes, depending on which layer noticed first: node-postgres (socket
 * codes, SQLSTATE class 08 and 57P0x when the server shuts down, or a bare
 * "Connection terminated" message), Prisma's driver adapter (kinds such as
 * DatabaseNotReachable), or Prisma itself (P1001, P1017, …), each possibly
 * wrapping the one below in `cause` or `meta`.
 */
const codes = new Set([
  // Socket errors, from node-postgres and Node itself.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
  // SQLSTATE: connection exceptions, and the server shutting down or starting.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  // Too many connections: every pool of every process reopening at once after a restart can
  // pass the server's limit for a moment; like a refusal, it passes, and the request is resent.
  '53300',
  // Prisma: can't reach, timed out, server closed the connection, pool timeout.
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'P2037',
]);

const kinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

const messages = /connection terminated|connection refused|ECONNREFUSED|connection (is )?closed|the database system is (shutting down|starting up)|terminating connection due to administrator command|can't reach database server|timeout exceeded when trying to connect|client has encountered a connection error|server closed the connection|too many clients already|too many database connections/i;

export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && codes.has(e.code)) return true;
  if (typeof e.originalCode === 'string' && codes.has(e.originalCode)) return true;
  if (typeof e.kind === 'string' && kinds.has(e.kind)) return true;
  if (typeof e.message === 'string' && messages.test(e.message)) return true;
  const meta = typeof e.meta === 'object' && e.meta !== null ? (e.meta as { driverAdapterError?: unknown }).driverAdapterError : undefined;
  // AggregateError: Node's connect tries every address of a host name.
  const nested = [e.cause, meta, ...(Array.isArray(e.errors) ? e.errors : [])];
  return nested.some((inner) => isDatabaseUnreachable(inner, depth + 1));
}
