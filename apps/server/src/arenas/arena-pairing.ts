/** A player who may be paired now, in standings order. */
export interface Free {
  playerId: string;
  rank: number;
  lastOpponent: string | null;
}

/**
 * From the top of the standings down, each free player meets the free player
 * nearest to them in rank, never the one they just played (either way
 * round). Anyone left over (an odd one out, or a pair who just met) waits
 * for the next game to end.
 */
export function arenaPairs(free: readonly Free[]): Array<[Free, Free]> {
  const left = [...free].sort((a, b) => a.rank - b.rank);
  const pairs: Array<[Free, Free]> = [];
  while (left.length > 1) {
    const first = left.shift()!;
    const at = left.findIndex((other) => other.playerId !== first.lastOpponent && other.lastOpponent !== first.playerId);
    if (at < 0) continue;
    pairs.push([first, left[at]!]);
    left.splice(at, 1);
  }
  return pairs;
}
