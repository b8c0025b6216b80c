import { ErrorCode, uuid } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';

/** Where the previous page of a match list stopped: the sort key and id of its last match. */
export interface PageCursor {
  at: Date;
  id: string;
}

// Timestamps the database and toISOString() agree on: from the epoch (the
// fallback of a match without its sort key) to the end of year 9999.
const earliest = Date.UTC(1970, 0, 1);
const latest = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function encodeCursor({ at, id }: PageCursor): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

/** Accepts only what encodeCursor writes; anything else is the client's mistake, never the database's. */
export function decodeCursor(text: string): PageCursor {
  const parts = Buffer.from(text, 'base64url').toString().split('|');
  const [at, id] = parts;
  const date = new Date(at ?? '');
  const time = date.getTime();
  const exactDate = time >= earliest && time <= latest && date.toISOString() === at;
  if (parts.length !== 2 || !exactDate || !uuid.safeParse(id).success) {
    throw new ServiceError(ErrorCode.BadRequest, 'Bad page cursor');
  }
  return { at: date, id: id! };
}
