import type { ErrorBody, ErrorCode } from '@oanquan/protocol';

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
