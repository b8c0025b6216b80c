import type { ErrorBody, ErrorCode } from '@oanquan/protocol';

/** Failures the client notices itself, beside the server's own codes. */
export const ClientErrorCode = {
  /** No connection to the server at the moment. */
  Offline: 'OFFLINE',
  /** The server did not answer in time. */
  Timeout: 'TIMEOUT',
  /** A request could not be made or its answer read. */
  Network: 'NETWORK',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

export interface Failure {
  ok: false;
  code: ErrorCode | ClientErrorCode;
  message: string;
  /** The HTTP status of a REST failure. */
  status?: number;
  /** A limit's Retry-After: when the same request may succeed again. */
  retryAfterSeconds?: number;
}

export function failure(code: Failure['code'], message: string, status?: number, retryAfterSeconds?: number): Failure {
  return {
    ok: false,
    code,
    message,
    ...(status === undefined ? {} : { status }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false && typeof (value as { code?: unknown }).code === 'string';
}
