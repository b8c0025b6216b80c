import { ARENA_PAGE_SIZE, type ArenaGame, type ArenaKind, type ArenaPhase, type ArenaStanding, type ArenaSummary, type ArenaView, type ArenaWait, type QueuePool } from '@oanquan/protocol';
import type { RuleOptions } from '@oanquan/rules';
import type { Tx } from '../db/database.js';
import type { ArenaBoard } from './arena-board.js';
import { waitOf } from './arena-pairing.js';
import type { EntrantRow, GameRow, Standing } from './arena-standings.js';

type Reader = Pick<Tx, '$queryRaw'>;

export interface ArenaRow {
  id: string;
  code: string;
  name: string;
  pool: string;
  rules: unknown;
  rated: boolean;
  startsAt: Date;
  endsAt: Date;
  finishedAt: Date | null;
}

export interface ArenaGameRow extends GameRow {
  roomCode: string;
  name0: string;
  name1: string;
}

export function phaseOf(arena: Pick<ArenaRow, 'startsAt' | 'endsAt' | 'finishedAt'>, now: Date): ArenaPhase {
  if (arena.finishedAt) return 'finished';
  if (now < arena.startsAt) return 'upcoming';
  return now < arena.endsAt ? 'running' : 'ending';
}

/** An arena's entrants, or those who joined or paused since `since` (a join or a pause sets active_since). */
export async function entrantsOf(db: Reader, arenaId: string, since: Date | null = null): Promise<EntrantRow[]> {
  return db.$queryRaw<EntrantRow[]>`
    SELECT ap.player_id AS "playerId", p.name, ap.rating, ap.active, ap.active_since AS "activeSince", ap.joined_at AS "joinedAt"
    FROM arena_player ap JOIN player p ON p.id = ap.player_id
    WHERE ap.arena_id = ${arenaId}::uuid AND (${since}::timestamptz IS NULL OR ap.active_since >= ${since}::timestamptz)`;
}

/** The games made since `since` but those `seen`, and those of `live` (in play at the last read) that have ended. */
export async function gamesOf(db: Reader, arenaId: string, { since, seen, live }: { since: Date; seen: string[]; live: string[] }): Promise<ArenaGameRow[]> {
  return db.$queryRaw<ArenaGameRow[]>`
    SELECT g.match_id AS "matchId", g.player0_id AS "player0Id", g.player1_id AS "player1Id", g.created_at AS "createdAt",
           m.status = 'ended' AS ended, m.winner, m.end_reason AS "endReason", m.ended_at AS "endedAt", m.first, m.first_move_deadline AS "firstMoveDeadline", r.code AS "roomCode",
           p0.name AS "name0", p1.name AS "name1"
    FROM arena_game g JOIN match m ON m.id = g.match_id JOIN room r ON r.id = m.room_id
      JOIN player p0 ON p0.id = g.player0_id JOIN player p1 ON p1.id = g.player1_id
    WHERE g.arena_id = ${arenaId}::uuid
      AND ((g.created_at >= ${since} AND NOT g.match_id = ANY(${seen}::uuid[])) OR (g.match_id = ANY(${live}::uuid[]) AND m.status = 'ended'))`;
}

/**
 * Games made by another node's tick carry that node's clock, and commit up
 * to a transaction's length after it: read from this far before the newest
 * seen (those already seen are left out by id).
 */
const CLOCKS_AND_COMMITS_MS = 60_000;

/**
 * Entrants are read whole this often; in between, only those who joined or
 * paused since the last read, so that a tick of a large arena does not read
 * and parse every entrant again.
 */
const ENTRANTS_WHOLE_MS = 60_000;

/**
 * A join or a pause carries its writer's clock and commits within a
 * transaction's length (a tick's, at most 15 s) of it: read from this far
 * before the last read.
 */
const ENTRANT_CHANGES_MARGIN_MS = 20_000;

/**
 * Brings a board up to the rows: the entrants who joined or paused since its
 * last read (all of them now and then), the games in play that have ended,
 * the games made since. `now`: the clock joins and pauses are written with.
 */
export async function refreshBoard(db: Reader, arenaId: string, board: ArenaBoard<ArenaGameRow>, now: Date = new Date()): Promise<ArenaBoard<ArenaGameRow>> {
  const at = now.getTime();
  const since = board.entrantsSince(at, ENTRANTS_WHOLE_MS, ENTRANT_CHANGES_MARGIN_MS);
  const entrants = await entrantsOf(db, arenaId, since);
  const games = await gamesOf(db, arenaId, board.pending(CLOCKS_AND_COMMITS_MS));
  return board.readEntrants(entrants, since, at).apply(games);
}

export function summaryOf(arena: ArenaRow, players: number, now: Date): ArenaSummary {
  return {
    code: arena.code,
    kind: arena.name as ArenaKind,
    pool: arena.pool as QueuePool,
    rated: arena.rated,
    startsAt: arena.startsAt.toISOString(),
    endsAt: arena.endsAt.toISOString(),
    phase: phaseOf(arena, now),
    players,
  };
}

/** Games in play shown on a page, beside the latest ended ones. */
const LIVE_GAMES_SHOWN = 20;

/**
 * An arena's page of standings as it is sent, for `me` (the reader's player
 * id, if any); `repeatAfterMs` is the pairing's (ARENA_REPEAT_AFTER_MS), for
 * the time a waiting pair meets again.
 */
export function viewOf(arena: ArenaRow, board: ArenaBoard<ArenaGameRow>, page: number, me: string | null, now: Date, repeatAfterMs: number): ArenaView {
  const standings = board.standings();
  const running = phaseOf(arena, now) === 'running';
  const waiting = (s: Standing): ArenaWait | null => {
    if (!running || !s.active || s.playing !== null) return null;
    const wait = waitOf(s, s.lastOpponent === null ? null : board.standingOf(s.lastOpponent), board.readiness(), repeatAfterMs);
    return wait.reason === 'rematch' ? { ...wait, at: new Date(wait.at).toISOString() } : wait;
  };
  const line = (s: Standing): ArenaStanding => ({
    rank: s.rank,
    id: s.playerId,
    name: s.name,
    rating: Math.round(s.rating),
    score: s.score,
    points: s.points,
    onFire: s.onFire,
    active: s.active,
    playing: s.playing === null ? null : (board.gameOf(s.playing)?.roomCode ?? null),
    waiting: waiting(s),
  });
  const mine = me === null ? null : board.standingOf(me);
  const { live, recent } = board.games();
  const shown: ArenaGame[] = [...live.slice(0, LIVE_GAMES_SHOWN), ...recent].map((game) => ({
    matchId: game.matchId,
    roomCode: game.roomCode,
    players: [game.player0Id, game.player1Id],
    names: [game.name0, game.name1],
    ended: game.ended,
    winner: game.winner,
  }));
  return {
    ...summaryOf(arena, standings.length, now),
    rules: arena.rules as RuleOptions,
    now: now.toISOString(),
    page,
    standings: standings.slice((page - 1) * ARENA_PAGE_SIZE, page * ARENA_PAGE_SIZE).map(line),
    me: mine === null ? null : line(mine),
    games: shown,
  };
}
