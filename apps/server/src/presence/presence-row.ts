import type { HotSql } from '../db/hot-sql.js';
import { dateOf } from '../match-records/match-row.js';
import type { MatchRow } from '../match-records/match-store.js';

/**
 * What a room's presence is judged from, in one statement: its newest match,
 * the absence columns, what a claim's time depends on, and whether a seat is
 * the computer's. Every match's start announces its room's presence, so this
 * sits on every game's path.
 */
const roomPresenceStatement = {
  name: 'room-presence',
  text: `
    SELECT m.id, m.status::text AS status, m.position, m.player0_id AS "player0Id", m.player1_id AS "player1Id",
      m.absent0_since AS "absent0Since", m.absent1_since AS "absent1Since", m.clock0_ms AS "clock0Ms", m.clock1_ms AS "clock1Ms",
      m.turn_started_at AS "turnStartedAt",
      coalesce((SELECT p.bot_level IS NOT NULL FROM player p WHERE p.id = m.player0_id), false) AS computer0,
      coalesce((SELECT p.bot_level IS NOT NULL FROM player p WHERE p.id = m.player1_id), false) AS computer1
    FROM match m JOIN room r ON r.id = m.room_id
    WHERE r.code = $1
    ORDER BY m.number DESC LIMIT 1`,
};

export type PresenceRow = Pick<MatchRow, 'id' | 'status' | 'position' | 'player0Id' | 'player1Id' | 'absent0Since' | 'absent1Since' | 'clock0Ms' | 'clock1Ms' | 'turnStartedAt'> & {
  computer0: boolean;
  computer1: boolean;
};

export async function roomPresenceRow(sql: HotSql, code: string): Promise<PresenceRow | undefined> {
  const [row] = await sql.query<PresenceRow>(roomPresenceStatement, [code]);
  return row && { ...row, absent0Since: dateOf(row.absent0Since), absent1Since: dateOf(row.absent1Since), turnStartedAt: dateOf(row.turnStartedAt) };
}
