import type { HotSql } from '../db/hot-sql.js';
import type { Prisma } from '../generated/prisma/client.js';

const seatPlayer = { select: { id: true, name: true, botLevel: true } } as const;

/** What a match is read with: its room, its seats and its opener rounds in order. */
export const matchInclude = {
  room: { select: { code: true, initialMs: true, incrementMs: true } },
  player0: seatPlayer,
  player1: seatPlayer,
  rounds: { orderBy: { round: 'asc' } },
} as const satisfies Prisma.MatchInclude;

export type MatchRow = Prisma.MatchGetPayload<{ include: typeof matchInclude }>;

/** The columns of a match nothing has happened to yet, as the database's defaults fill them in. */
export const unplayedColumns = {
  first: null,
  version: 0,
  winner: null,
  endReason: null,
  score0: null,
  score1: null,
  ratedAt: null,
  ratingChanges: null,
  pairFirstWinner: null,
  pairStart: null,
  clock0Ms: null,
  clock1Ms: null,
  turnStartedAt: null,
  clockDeadline: null,
  firstMoveDeadline: null,
  absent0Since: null,
  absent1Since: null,
  rematch0: false,
  rematch1: false,
  nextMatchId: null,
  startedAt: null,
  endedAt: null,
} as const satisfies Partial<MatchRow>;

/**
 * A match row as Prisma gives it with `matchInclude` (its room, its seats,
 * its opener rounds in order), in one statement. Prisma's include sends one
 * query per relation, and inside a transaction sends them all at once on
 * the transaction's one connection; this sends one.
 */
export const matchRowSql = matchRowSqlWith('');

/** `matchRowSql` with more columns after its own (`columns` starts with a comma), computed from the match `m`. */
export function matchRowSqlWith(columns: string): string {
  return `
  SELECT m.id, m.room_id AS "roomId", m.number, m.status::text AS status, m.rules, m.player0_id AS "player0Id", m.player1_id AS "player1Id",
    m.first, m.version, m.position, m.winner, m.end_reason AS "endReason", m.score0, m.score1, m.rated, m.pair_game AS "pairGame", m.pair_first_winner AS "pairFirstWinner", m.pair_start AS "pairStart", m.rated_at AS "ratedAt",
    m.rating_changes AS "ratingChanges", m.clock0_ms AS "clock0Ms", m.clock1_ms AS "clock1Ms", m.turn_started_at AS "turnStartedAt",
    m.clock_deadline AS "clockDeadline", m.first_move_deadline AS "firstMoveDeadline", m.absent0_since AS "absent0Since",
    m.absent1_since AS "absent1Since", m.rematch0, m.rematch1, m.next_match_id AS "nextMatchId", m.created_at AS "createdAt",
    m.started_at AS "startedAt", m.ended_at AS "endedAt",
    json_build_object('code', r.code, 'initialMs', r.initial_ms, 'incrementMs', r.increment_ms) AS room,
    (SELECT json_build_object('id', p.id, 'name', p.name, 'botLevel', p.bot_level) FROM player p WHERE p.id = m.player0_id) AS player0,
    (SELECT json_build_object('id', p.id, 'name', p.name, 'botLevel', p.bot_level) FROM player p WHERE p.id = m.player1_id) AS player1,
    coalesce((SELECT json_agg(json_build_object('matchId', o.match_id, 'round', o.round, 'choice0', o.choice0, 'choice1', o.choice1,
        'winner', o.winner, 'createdAt', o.created_at, 'decidedAt', o.decided_at) ORDER BY o.round)
      FROM opener_round o WHERE o.match_id = m.id), '[]'::json) AS rounds${columns}
  FROM match m JOIN room r ON r.id = m.room_id WHERE m.id = $1::uuid`;
}

const matchRowStatement = { name: 'match-row', text: matchRowSql };

const dateColumns = ['ratedAt', 'turnStartedAt', 'clockDeadline', 'firstMoveDeadline', 'absent0Since', 'absent1Since', 'createdAt', 'startedAt', 'endedAt'] as const;

type Stamp = Date | string | null;

/** Timestamps inside JSON come as text, and a driver may give columns as text too: Dates, as Prisma gives them. */
export function matchRowOf(raw: MatchRow): MatchRow {
  const row = { ...raw } as Record<string, unknown>;
  for (const column of dateColumns) row[column] = dateOf(raw[column] as Stamp);
  row.rounds = raw.rounds.map((round) => ({ ...round, createdAt: dateOf(round.createdAt as Stamp)!, decidedAt: dateOf(round.decidedAt as Stamp) }));
  return row as MatchRow;
}

/** node-postgres and PGlite both give timestamps as Dates; this keeps it so whatever a driver does. */
export function dateOf(value: Stamp): Date | null {
  return value === null || value instanceof Date ? value : new Date(value);
}

export async function readMatchRow(sql: HotSql, matchId: string): Promise<MatchRow | undefined> {
  const [row] = await sql.query<MatchRow>(matchRowStatement, [matchId]);
  return row && matchRowOf(row);
}
