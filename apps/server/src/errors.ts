import type { FastifyBaseLogger } from 'fastify';
import { ErrorCode, type ErrorBody } from '@oanquan/protocol';
import { isDatabaseUnreachable } from './db/connection-errors.js';

/**
 * A refusal the client caused. Services throw it; the one error path of each
 * layer (Fastify's error handler, the socket acknowledgement) turns it into
 * `{ ok: false, code, message }`. Anything else is a bug and answers INTERNAL.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status = 400,
    /** For a limit: when the same request may succeed again, sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  toBody(): ErrorBody {
    return { ok: false, code: this.code, message: this.message };
  }
}

/**
 * What the one error path of each layer answers for a thrown error, or
 * undefined for a bug. A lost database is no bug and no fault of the client:
 * it answers UNAVAILABLE (503), which clients retry, since a request that
 * failed on the connection changed nothing that a retry would repeat (moves
 * carry their moveId; a transaction cut off is rolled back).
 */
export function asRefusal(error: unknown): ServiceError | undefined {
  if (error instanceof ServiceError) return error;
  if (isDatabaseUnreachable(error)) return new ServiceError(ErrorCode.Unavailable, 'The database cannot be reached for now; try again', 503);
  return undefined;
}

/**
 * How background work (sweeps, pairing ticks) reports a failed run: a lost
 * database is the operator's concern and already shown by readiness and the
 * metrics, so it is one warning line without a stack; anything else is a bug,
 * logged in full.
 */
export function logFailure(log: FastifyBaseLogger, error: unknown, fields: Record<string, unknown>, message: string): void {
  if (isDatabaseUnreachable(error)) log.warn({ ...fields, reason: error instanceof Error ? error.message.split('\n').at(-1) : String(error) }, `${message}: database unreachable`);
  else log.error({ ...fields, err: error }, message);
}
