import type { ArenaGame, ArenaKind, ArenaPhase, ArenaStanding, ArenaSummary, ArenaView, QueuePool } from '@oanquan/protocol';
import type { RuleOptions } from '@oanquan/rules';
import type { Tx } from '../db/database.js';
import { standingsOf, type EntrantRow, type GameRow, type Standing } from './arena-standings.js';

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
}

export function phaseOf(arena: Pick<ArenaRow, 'startsAt' | 'endsAt' | 'finishedAt'>, now: Date): ArenaPhase {
  if (arena.finishedAt) return 'finished';
  if (now < arena.startsAt) return 'upcoming';
  return now < arena.endsAt ? 'running' : 'ending';
}

export async function entrantsOf(db: Reader, arenaId: string): Promise<EntrantRow[]> {
  return db.$queryRaw<EntrantRow[]>`
    SELECT ap.player_id AS "playerId", p.name, ap.rating, ap.active, ap.active_since AS "activeSince", ap.joined_at AS "joinedAt"
    FROM arena_player ap JOIN player p ON p.id = ap.player_id WHERE ap.arena_id = ${arenaId}::uuid`;
}

export async function gamesOf(db: Reader, arenaId: string): Promise<ArenaGameRow[]> {
  return db.$queryRaw<ArenaGameRow[]>`
    SELECT g.match_id AS "matchId", g.player0_id AS "player0Id", g.player1_id AS "player1Id", g.created_at AS "createdAt",
           m.status = 'ended' AS ended, m.winner, m.end_reason AS "endReason", m.ended_at AS "endedAt", m.first, m.first_move_deadline AS "firstMoveDeadline", r.code AS "roomCode"
    FROM arena_game g JOIN match m ON m.id = g.match_id JOIN room r ON r.id = m.room_id
    WHERE g.arena_id = ${arenaId}::uuid`;
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

/** Ended games shown beside those in play while the arena runs; once it has finished, all of them. */
const RECENT_GAMES = 20;

export function viewOf(arena: ArenaRow, standings: readonly Standing[], games: readonly ArenaGameRow[], now: Date): ArenaView {
  const roomOf = new Map(games.map((game) => [game.matchId, game.roomCode]));
  const lines: ArenaStanding[] = standings.map((s) => ({
    rank: s.rank,
    id: s.playerId,
    name: s.name,
    rating: Math.round(s.rating),
    score: s.score,
    points: s.points,
    onFire: s.onFire,
    active: s.active,
    playing: s.playing === null ? null : (roomOf.get(s.playing) ?? null),
  }));
  const summary = summaryOf(arena, standings.length, now);
  const live = games.filter((game) => !game.ended);
  const ended = games
    .filter((game) => game.ended && game.endReason !== 'abort')
    .sort((a, b) => b.endedAt!.getTime() - a.endedAt!.getTime());
  const shown: ArenaGame[] = [...live, ...(summary.phase === 'finished' ? ended : ended.slice(0, RECENT_GAMES))].map((game) => ({
    matchId: game.matchId,
    roomCode: game.roomCode,
    players: [game.player0Id, game.player1Id],
    ended: game.ended,
    winner: game.winner,
  }));
  return { ...summary, rules: arena.rules as RuleOptions, now: now.toISOString(), standings: lines, games: shown };
}

/** Reads an arena's rows and ranks them. */
export async function loadStandings(db: Reader, arenaId: string): Promise<{ standings: Standing[]; games: ArenaGameRow[] }> {
  const [entrants, games] = [await entrantsOf(db, arenaId), await gamesOf(db, arenaId)];
  return { standings: standingsOf(entrants, games), games };
}
