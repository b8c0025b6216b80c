import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ErrorBody } from '@oanquan/protocol';
import { asRefusal, ServiceError } from '../errors.js';

/**
 * The one error path of the REST layer. A 4xx is the client's doing: it is
 * answered with its code and logged quietly without a stack, so strangers
 * cannot fill the logs. Anything else is a bug: logged in full, answered
 * INTERNAL without details. A lost database answers UNAVAILABLE (503) and is
 * logged as a warning: it is the operator's concern, not a bug.
 */
export function handleHttpError(error: FastifyError | ServiceError | Error, request: FastifyRequest, reply: FastifyReply) {
  const refusal = asRefusal(error);
  const body = refusal ? refusal.toBody() : errorBody(error);
  const status = refusal ? refusal.status : statusOf(error);
  if (body.code === ErrorCode.Unavailable) request.log.warn({ err: error }, 'database unreachable');
  else if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status, code: body.code, reason: body.message }, 'request refused');
  if (refusal?.retryAfterSeconds !== undefined) void reply.header('retry-after', String(refusal.retryAfterSeconds));
  return reply.status(status).send(body);
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
