/**
 * Stable error codes: the server sends them, the client translates them.
 * Never rename one; add new ones instead.
 */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  NotFound: 'NOT_FOUND',
  Internal: 'INTERNAL',
  Unavailable: 'UNAVAILABLE',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The body of every failed REST answer and of every rejected socket acknowledgement. */
export interface ErrorBody {
  ok: false;
  code: ErrorCode;
  message: string;
}
