import type { PlayErrorCode } from '@oanquan/rules';

/**
 * Stable error codes: the server sends them, the client translates them.
 * Never rename one; add new ones instead. An illegal move is rejected with
 * the rules' own code (ERR_EMPTY_SQUARE, …).
 */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Unauthorized: 'UNAUTHORIZED',
  NotFound: 'NOT_FOUND',
  RoomNotFound: 'ROOM_NOT_FOUND',
  MatchNotFound: 'MATCH_NOT_FOUND',
  NotAPlayer: 'NOT_A_PLAYER',
  NotInOpener: 'NOT_IN_OPENER',
  AlreadyChosen: 'ALREADY_CHOSEN',
  NotInPlay: 'NOT_IN_PLAY',
  NotYourTurn: 'NOT_YOUR_TURN',
  StaleVersion: 'STALE_VERSION',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  RateLimited: 'RATE_LIMITED',
  /** A socket handshake past the open connections allowed per player or per address. */
  TooManyConnections: 'TOO_MANY_CONNECTIONS',
  /** abort after the first move, claim while the opponent is present, … */
  NotAllowedNow: 'NOT_ALLOWED_NOW',
  TimeOut: 'TIME_OUT',
  /** The server is at its limit of work in progress and refused this without doing anything: send it again shortly. */
  Busy: 'BUSY',
  Internal: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | PlayErrorCode;

/**
 * Refusals after which nothing has changed and the same request (a move with
 * the same moveId) may simply be sent again after a short wait.
 */
export const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([ErrorCode.Busy]);

/** The body of every failed REST answer and of every rejected socket acknowledgement. */
export interface ErrorBody {
  ok: false;
  code: ErrorCode;
  message: string;
}
