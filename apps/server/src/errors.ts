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
