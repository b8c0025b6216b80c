// How long the computer may think about one move. On a clock it spends a
// small share of what it has left (plus most of the increment), so it never
// runs out of time on any clock a person could play: with 1 minute left and
// no increment it still has 50 moves of ~20 ms before its share shrinks to
// the floor, and a game that long has almost always ended. The budget is a
// deadline counted from the computer's turn being seen (bot-driver.ts): a
// wait for the database or a worker comes out of the search, not on top of it.
//
// When its move is held back anyway (BOT_MOVE_DELAY_MS), the move's own
// deadline is the search's ceiling too: a search that runs past it only
// makes the reply late. On a quiet machine a level's node budget ends the
// search well before; on a busy one, where the workers are shared by many
// games, the search stops there and the reply still lands on time.

/** The fraction of the remaining time one move may use. */
const SHARE_OF_REMAINING = 1 / 50;
/** Below this a search returns little better than its first iteration; the clock pays it anyway. */
const FLOOR_MS = 5;
/**
 * A move delay shorter than this is no deadline a person waits for (tests
 * and benches set 0): the search keeps the whole think time.
 */
export const DELAY_AS_DEADLINE_MIN_MS = 200;

export function thinkBudgetMs(settings: {
  thinkMs: number;
  remainingMs: number | null;
  incrementMs: number | null;
  /** The computer's move lands no sooner than this after its turn began. */
  moveDelayMs?: number;
}): number {
  const { remainingMs, incrementMs, moveDelayMs = 0 } = settings;
  const ceiling = moveDelayMs >= DELAY_AS_DEADLINE_MIN_MS ? Math.min(settings.thinkMs, moveDelayMs) : settings.thinkMs;
  const thinkMs = Math.max(FLOOR_MS, ceiling);
  if (remainingMs === null) return thinkMs;
  const share = Math.max(0, remainingMs) * SHARE_OF_REMAINING + (incrementMs ?? 0) * 0.5;
  return Math.max(FLOOR_MS, Math.min(thinkMs, Math.floor(share)));
}
