import { clampPly, type Cursor, type Track } from './replay-cursor.js';

/**
 * The move a cursor shows: partway through a move it is that move (the
 * cursor's ply + 1), at rest it is the last move played. Labels, the
 * highlighted move and the address all name this one.
 */
export function shownMove({ ply, step }: Cursor): number {
  return step === null ? ply : ply + 1;
}

/** What the address says: `move=4&stone=1` is the first stone of move 4, `move=4` the rest after it. */
export interface Address {
  readonly move: number;
  readonly stone: number | null;
}

export function addressOf(cursor: Cursor): Address {
  return { move: shownMove(cursor), stone: cursor.step === null ? null : cursor.step + 1 };
}

function whole(text: string | null): number | null {
  return text !== null && /^\d{1,4}$/.test(text) ? Number(text) : null;
}

/**
 * The cursor an address points at. A missing or unreadable move means
 * `fallback` (the end); a stone without a move, or one the move does not
 * have, means the rest after that move.
 */
export function cursorAt(track: Track, move: string | null, stone: string | null, fallback: number): Cursor {
  const given = whole(move);
  const ply = clampPly(track, given ?? fallback);
  const k = whole(stone);
  if (given !== null && k !== null && ply >= 1 && k >= 1 && k <= track.stepsOf(ply)) return { ply: ply - 1, step: k - 1 };
  return { ply, step: null };
}
