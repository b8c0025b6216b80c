/** A waiting player as the pairing sees them. */
export interface Waiting {
  playerId: string;
  rating: number;
  joinedAt: Date;
}

export interface GapSettings {
  /** Rating gap accepted at once. */
  baseGap: number;
  /** How much wider the accepted gap gets per second of waiting. */
  gapPerSecond: number;
}

export function acceptedGap(waiting: Waiting, now: Date, settings: GapSettings): number {
  return settings.baseGap + (settings.gapPerSecond * Math.max(0, now.getTime() - waiting.joinedAt.getTime())) / 1000;
}

/**
 * Pairs the longest-waiting first, each with the closest rating still free,
 * when the gap is within what the longer waiter of the two accepts by now.
 * The accepted gap grows without bound, so anyone who waits is paired as
 * soon as anyone else is there.
 */
export function choosePairs(entries: readonly Waiting[], now: Date, settings: GapSettings): Array<[Waiting, Waiting]> {
  const free = [...entries].sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime());
  const pairs: Array<[Waiting, Waiting]> = [];
  while (free.length > 1) {
    const first = free.shift()!;
    let best = 0;
    for (let i = 1; i < free.length; i++) {
      if (Math.abs(free[i]!.rating - first.rating) < Math.abs(free[best]!.rating - first.rating)) best = i;
    }
    const partner = free[best]!;
    const accepted = Math.max(acceptedGap(first, now, settings), acceptedGap(partner, now, settings));
    if (Math.abs(partner.rating - first.rating) <= accepted) {
      pairs.push([first, partner]);
      free.splice(best, 1);
    }
  }
  return pairs;
}
