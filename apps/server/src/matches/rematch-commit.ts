import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { HotSql } from '../db/hot-sql.js';
import type { MatchRow } from './match-store.js';

/** What a rematch is decided from: the match's own columns, its room and its seats. */
export type EndedMatch = Omit<MatchRow, 'rounds'>;

/** The match row as Prisma would give it, its room and seats included, in one statement. */
const endedMatchStatement = {
  name: 'ended-match',
  text: `
    SELECT m.id, m.room_id AS "roomId", m.number, m.status::text AS status, m.rules, m.player0_id AS "player0Id", m.player1_id AS "player1Id",
      m.first, m.version, m.position, m.winner, m.end_reason AS "endReason", m.score0, m.score1, m.rated, m.rated_at AS "ratedAt",
      m.rating_changes AS "ratingChanges", m.clock0_ms AS "clock0Ms", m.clock1_ms AS "clock1Ms", m.turn_started_at AS "turnStartedAt",
      m.clock_deadline AS "clockDeadline", m.first_move_deadline AS "firstMoveDeadline", m.absent0_since AS "absent0Since",
      m.absent1_since AS "absent1Since", m.rematch0, m.rematch1, m.next_match_id AS "nextMatchId", m.created_at AS "createdAt",
      m.started_at AS "startedAt", m.ended_at AS "endedAt",
      json_build_object('code', r.code, 'initialMs', r.initial_ms, 'incrementMs', r.increment_ms) AS room,
      (SELECT json_build_object('id', p.id, 'name', p.name, 'botLevel', p.bot_level) FROM player p WHERE p.id = m.player0_id) AS player0,
      (SELECT json_build_object('id', p.id, 'name', p.name, 'botLevel', p.bot_level) FROM player p WHERE p.id = m.player1_id) AS player1
    FROM match m JOIN room r ON r.id = m.room_id WHERE m.id = $1::uuid`,
};

const dateColumns = ['ratedAt', 'turnStartedAt', 'clockDeadline', 'firstMoveDeadline', 'absent0Since', 'absent1Since', 'createdAt', 'startedAt', 'endedAt'] as const;

export async function readEndedMatch(sql: HotSql, matchId: string): Promise<EndedMatch | undefined> {
  const [row] = await sql.query<EndedMatch>(endedMatchStatement, [matchId]);
  if (!row) return undefined;
  // node-postgres and PGlite both give timestamps as Dates; this keeps it so whatever a driver does.
  for (const column of dateColumns) {
    const value = row[column] as Date | string | null;
    if (typeof value === 'string') (row as Record<string, unknown>)[column] = new Date(value);
  }
  return row;
}

/**
 * An offer, or an acceptance with the new match, in one statement:
 * compare-and-set the ended match's version with its rematch columns, insert
 * the new match (when there is one) and the events. When another change got
 * there first the update matches no row, so nothing else is written.
 */
const commitRematchStatement = {
  name: 'commit-rematch',
  text: `
    WITH m AS (
      UPDATE match SET version = $3, rematch0 = $4, rematch1 = $5, next_match_id = $6::uuid
      WHERE id = $1::uuid AND version = $2
      RETURNING id),
    n AS (
      INSERT INTO match (id, room_id, number, status, rules, rated, player0_id, player1_id, position, created_at)
      SELECT $6::uuid, $7::uuid, $8::int, 'opener'::"MatchStatus", $9::jsonb, $10::boolean, $11::uuid, $12::uuid, $13::jsonb, $14::timestamptz
      FROM m WHERE $6::uuid IS NOT NULL),
    ev AS (
      INSERT INTO match_event (match_id, version, payload, created_at)
      SELECT m.id, $2 + e.n, e.payload, $14::timestamptz FROM m, jsonb_array_elements($15::jsonb) WITH ORDINALITY AS e(payload, n))
    SELECT count(*)::int AS applied FROM m`,
};

/**
 * Commits `after` (the ended match at its new version) over the row at
 * `fromVersion`, with `created` (the new match, if this accepts) and the
 * envelopes. False when the match had moved on: nothing was written.
 */
export async function commitRematch(sql: HotSql, fromVersion: number, after: EndedMatch, created: MatchRow | null, envelopes: MatchEventEnvelope[], at: Date): Promise<boolean> {
  const [row] = await sql.query<{ applied: number }>(commitRematchStatement, [
    after.id,
    fromVersion,
    after.version,
    after.rematch0,
    after.rematch1,
    created?.id ?? null,
    created?.roomId ?? null,
    created?.number ?? null,
    created ? JSON.stringify(created.rules) : null,
    created?.rated ?? null,
    created?.player0Id ?? null,
    created?.player1Id ?? null,
    created ? JSON.stringify(created.position) : null,
    at.toISOString(),
    JSON.stringify(envelopes),
  ]);
  return row?.applied === 1;
}
