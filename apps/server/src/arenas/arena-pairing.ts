/**
 * How long two players who just met wait for someone else before they are
 * paired again. A rematch at once would have two players of a crowd meet
 * over and over; never pairing them again stalled an arena of two (or of
 * three, while the third plays) for the rest of its time. After this wait a
 * third player's game has had time to end: whoever is still free meets
 * their last opponent again.
 */
export const ARENA_REPEAT_AFTER_MS = 20_000;

/** A player who may be paired now, in standings order. */
export interface Free {
  playerId: string;
  rank: number;
  lastOpponent: string | null;
  /** When their latest game ended (ms), null before their first. */
  lastEndedAt: number | null;
}

/** Whether two free players met last (either way round): they meet again only after `repeatAfterMs`. */
function metLast(a: Pick<Free, 'playerId' | 'lastOpponent'>, b: Pick<Free, 'playerId' | 'lastOpponent'>): boolean {
  return a.lastOpponent === b.playerId || b.lastOpponent === a.playerId;
}

/** When two players who met last may meet again: once both have been free for `repeatAfterMs`. */
function mayMeetAgainAt(a: Pick<Free, 'lastEndedAt'>, b: Pick<Free, 'lastEndedAt'>, repeatAfterMs: number): number {
  return Math.max(a.lastEndedAt ?? -Infinity, b.lastEndedAt ?? -Infinity) + repeatAfterMs;
}

/**
 * From the top of the standings down, each free player meets the free player
 * nearest to them in rank, but not the one they just played (either way
 * round) while anyone else is free; that one only once both have waited
 * `repeatAfterMs` since their game ended. Anyone left over (an odd one out,
 * or a pair who just met) waits for the next game to end or that wait.
 */
export function arenaPairs(free: readonly Free[], now: number, repeatAfterMs: number): Array<[Free, Free]> {
  const left = [...free].sort((a, b) => a.rank - b.rank);
  const pairs: Array<[Free, Free]> = [];
  while (left.length > 1) {
    const first = left.shift()!;
    let at = left.findIndex((other) => !metLast(first, other));
    if (at < 0) at = left.findIndex((other) => mayMeetAgainAt(first, other, repeatAfterMs) <= now);
    if (at < 0) continue;
    pairs.push([first, left[at]!]);
    left.splice(at, 1);
  }
  return pairs;
}

/** Why a free player was not paired, as their line of the standings says (see arenaWait). */
export type Wait = { reason: 'alone' | 'busy' | 'pairing' } | { reason: 'rematch'; opponent: string; at: number };

/**
 * Why `player` (active, not in a game) waits, from the arena's counts and
 * their last opponent's line alone: a reader's line costs no pass over
 * every entrant. After a tick's pairing the only free players left are
 * pairs who just met (arenaPairs pairs everyone else), so a free last
 * opponent and nobody else free means that rematch.
 */
export function waitOf(
  player: Free,
  lastOpponent: (Free & { name: string; active: boolean; playing: string | null }) | null,
  counts: { active: number; free: number },
  repeatAfterMs: number,
): Wait {
  if (counts.active <= 1) return { reason: 'alone' };
  if (counts.free <= 1) return { reason: 'busy' };
  const rematch = counts.free === 2 && lastOpponent?.active && lastOpponent.playing === null && metLast(player, lastOpponent);
  return rematch ? { reason: 'rematch', opponent: lastOpponent.name, at: mayMeetAgainAt(player, lastOpponent, repeatAfterMs) } : { reason: 'pairing' };
}
