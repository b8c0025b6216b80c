import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ErrorBody } from '@oanquan/protocol';
import { asRefusal, ServiceError } from '../errors.js';

/**
 * The one error path of the REST layer. A 4xx is the client's doing, and a
 * service's own refusal is no bug whatever its status (a full queue answers
 * 503): both are answered with their code and logged quietly without a
 * stack, so strangers cannot fill the logs. Anything else is a bug: logged in full, answered
 * INTERNAL without details. A lost database answers UNAVAILABLE (503) and is
 * logged as a warning: it is the operator's concern, not a bug. A client that
 * hung up mid-body is logged at debug: nobody is left to answer.
 */
export function handleHttpError(error: FastifyError | ServiceError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (abortedByClient(error, request)) {
    request.log.debug({ reason: error.message }, 'request aborted by the client');
    return reply.status(400).send(errorBody(error));
  }
  const refusal = asRefusal(error);
  const body = refusal ? refusal.toBody() : errorBody(error);
  const status = refusal ? refusal.status : statusOf(error);
  if (body.code === ErrorCode.Unavailable) request.log.warn({ err: error }, 'database unreachable');
  else if (status >= 500 && !refusal) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status, code: body.code, reason: body.message }, 'request refused');
  if (refusal?.retryAfterSeconds !== undefined) reply.header('retry-after', refusal.retryAfterSeconds);
  return reply.status(status).send(body);
}

/**
 * Whether the error is the request's own stream failing: its client hung up
 * before the body had arrived. Node names that ECONNRESET ("aborted"), the
 * code of a database connection cut too, so it is told by where it comes
 * from, not by its code: what the request stream reports is the client's doing.
 */
export function abortedByClient(error: unknown, request: FastifyRequest): boolean {
  return error != null && request.raw.errored === error;
}

function statusOf(error: Error & { statusCode?: number }): number {
  return error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
}

function errorBody(error: Error): ErrorBody {
  const status = statusOf(error);
  if (status >= 500) return { ok: false, code: ErrorCode.Internal, message: 'Internal error' };
  const code = status === 413 ? ErrorCode.PayloadTooLarge : status === 429 ? ErrorCode.RateLimited : ErrorCode.BadRequest;
  return { ok: false, code, message: error.message };
}
