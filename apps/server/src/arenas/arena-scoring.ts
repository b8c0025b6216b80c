/**
 * Arena points, from results alone (so a standing can always be recomputed
 * from the match rows): 2 a win, 1 a draw, 0 a loss; after two wins in a
 * row each further win counts double, until a game is not won.
 */

export type Outcome = 'win' | 'draw' | 'loss';

/** One of a player's counted games, in the order they ended. */
export interface Played {
  matchId: string;
  outcome: Outcome;
}

export interface Tally {
  score: number;
  /** Points of each game in order: 4 is a doubled win (a streak). */
  points: number[];
  /** Two wins in a row or more: the next win counts double. */
  onFire: boolean;
  wins: number;
  games: number;
}

const base: Record<Outcome, number> = { win: 2, draw: 1, loss: 0 };

export function tally(games: readonly Played[]): Tally {
  let score = 0;
  let run = 0;
  let wins = 0;
  const points: number[] = [];
  for (const { outcome } of games) {
    const earned = outcome === 'win' && run >= 2 ? 4 : base[outcome];
    run = outcome === 'win' ? run + 1 : 0;
    if (outcome === 'win') wins++;
    score += earned;
    points.push(earned);
  }
  return { score, points, onFire: run >= 2, wins, games: games.length };
}

/** A finished match as the arena counts it, for one of its seats; null when it does not count (aborted before any move). */
export function outcomeFor(seat: 0 | 1, match: { winner: number | null; endReason: string | null }): Outcome | null {
  if (match.endReason === 'abort') return null;
  if (match.winner === seat) return 'win';
  if (match.winner !== null) return 'loss';
  // Both players gone: nobody played it out, nobody earns from it.
  return match.endReason === 'abandon' ? 'loss' : 'draw';
}

export interface Entrant {
  playerId: string;
  rating: number;
  joinedAt: Date;
}

/**
 * Highest score first; between equal scores the higher rating at joining,
 * then whoever joined first, so every node ranks the same rows alike.
 */
export function rank<T extends Entrant & { score: number }>(entries: readonly T[]): Array<T & { rank: number }> {
  return [...entries]
    .sort((a, b) => b.score - a.score || b.rating - a.rating || a.joinedAt.getTime() - b.joinedAt.getTime() || (a.playerId < b.playerId ? -1 : 1))
    .map((entry, index) => ({ ...entry, rank: index + 1 }));
}
