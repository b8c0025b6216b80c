import { outcomeFor, rank, tally, type Entrant, type Played } from './arena-scoring.js';

export interface EntrantRow extends Entrant {
  name: string;
  active: boolean;
  activeSince: Date;
}

/** A game an arena paired, with its match's state. */
export interface GameRow {
  matchId: string;
  player0Id: string;
  player1Id: string;
  ended: boolean;
  winner: number | null;
  endReason: string | null;
  endedAt: Date | null;
  createdAt: Date;
  /** The seat that moved first, and by when it had to (a match aborted after that never saw its first move). */
  first: number | null;
  firstMoveDeadline: Date | null;
}

export interface Standing extends EntrantRow {
  rank: number;
  score: number;
  points: number[];
  onFire: boolean;
  games: number;
  wins: number;
  /** The match this player is seated in now, if any. */
  playing: string | null;
  /** Whom they played last (pairing avoids them next). */
  lastOpponent: string | null;
  /** Active, but did not show up for their last game since they last joined: to be paused, not paired. */
  noShow: boolean;
}

/**
 * The seats that did not show up for a game: the first mover of a match
 * aborted because the first move never came, whoever lost by abandoning,
 * and both players of a game both abandoned.
 */
export function noShows(game: Pick<GameRow, 'endReason' | 'winner' | 'first' | 'firstMoveDeadline' | 'endedAt'>): Array<0 | 1> {
  if (game.endReason === 'abandon') return game.winner === null ? [0, 1] : [(1 - game.winner) as 0 | 1];
  const lapsed = game.firstMoveDeadline !== null && game.endedAt !== null && game.endedAt >= game.firstMoveDeadline;
  if (game.endReason === 'abort' && lapsed && (game.first === 0 || game.first === 1)) return [game.first];
  return [];
}

/**
 * Every entrant's standing from the rows alone. Games count in the order
 * they ended; a game still in play counts once it ends, even after the
 * arena's time is up.
 */
export function standingsOf(entrants: readonly EntrantRow[], games: readonly GameRow[]): Standing[] {
  const played = new Map<string, Played[]>();
  const playing = new Map<string, string>();
  const last = new Map<string, { opponent: string; at: number }>();
  const lastEnded = new Map<string, { game: GameRow; seat: 0 | 1 }>();
  const ordered = [...games].sort((a, b) => order(a) - order(b) || (a.matchId < b.matchId ? -1 : 1));
  for (const game of ordered) {
    const seats = [game.player0Id, game.player1Id] as const;
    seats.forEach((playerId, seat) => {
      const opponent = seats[1 - seat]!;
      const at = game.createdAt.getTime();
      if ((last.get(playerId)?.at ?? -Infinity) <= at) last.set(playerId, { opponent, at });
      if (!game.ended) {
        playing.set(playerId, game.matchId);
        return;
      }
      lastEnded.set(playerId, { game, seat: seat as 0 | 1 });
      const outcome = outcomeFor(seat as 0 | 1, game);
      if (outcome === null) return;
      const list = played.get(playerId) ?? [];
      list.push({ matchId: game.matchId, outcome });
      played.set(playerId, list);
    });
  }
  const missed = (entrant: EntrantRow) => {
    const ended = lastEnded.get(entrant.playerId);
    return entrant.active && ended !== undefined && ended.game.endedAt! > entrant.activeSince && noShows(ended.game).includes(ended.seat);
  };
  return rank(
    entrants.map((entrant) => ({
      ...entrant,
      ...tally(played.get(entrant.playerId) ?? []),
      playing: playing.get(entrant.playerId) ?? null,
      lastOpponent: last.get(entrant.playerId)?.opponent ?? null,
      noShow: missed(entrant),
    })),
  );
}

function order(game: GameRow): number {
  return (game.endedAt ?? game.createdAt).getTime();
}

/** The entrants behind standings, to rank them again with more games. */
export function entrantsIn(standings: readonly Standing[]): EntrantRow[] {
  return standings.map(({ playerId, name, rating, joinedAt, active, activeSince }) => ({ playerId, name, rating, joinedAt, active, activeSince }));
}
