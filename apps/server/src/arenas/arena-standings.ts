import type { Entrant } from './arena-scoring.js';

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
  /** Whom they played last (pairing avoids them next, for a while). */
  lastOpponent: string | null;
  /** When their latest game ended (ms), null before their first. */
  lastEndedAt: number | null;
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
