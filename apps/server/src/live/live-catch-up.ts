import { play } from '@oanquan/rules';
import type { HotSql } from '../db/hot-sql.js';
import type { LiveGame } from './game-cache.js';
import { dateOf } from '../match-records/match-row.js';
import type { MatchRow } from '../match-records/match-store.js';

/**
 * The columns of a match that change while it is played, and the moves
 * after a ply, in one statement: what another process sharing the database
 * committed since this one last saw the match.
 */
const liveColumnsStatement = {
  name: 'live-columns',
  text: `
    SELECT m.version, m.status::text AS status, m.position, m.clock0_ms AS "clock0Ms", m.clock1_ms AS "clock1Ms",
      m.turn_started_at AS "turnStartedAt", m.clock_deadline AS "clockDeadline", m.first_move_deadline AS "firstMoveDeadline",
      m.winner, m.end_reason AS "endReason", m.score0, m.score1, m.ended_at AS "endedAt",
      m.absent0_since AS "absent0Since", m.absent1_since AS "absent1Since",
      (SELECT coalesce(json_agg(json_build_object('square', mv.square, 'dir', mv.dir) ORDER BY mv.ply), '[]'::json)
         FROM move mv WHERE mv.match_id = m.id AND mv.ply > $2) AS moves
    FROM match m WHERE m.id = $1::uuid`,
};

type LiveColumns = Pick<
  MatchRow,
  'version' | 'status' | 'position' | 'clock0Ms' | 'clock1Ms' | 'turnStartedAt' | 'clockDeadline' | 'firstMoveDeadline' | 'winner' | 'endReason' | 'score0' | 'score1' | 'endedAt' | 'absent0Since' | 'absent1Since'
> & { moves: Array<{ square: number; dir: number }> };

/**
 * The live game brought up to date from the database: its changing columns
 * read again, the rules state advanced by the moves made elsewhere. Seats,
 * room and rules never change once a match is played, so they are kept.
 * Undefined when the match is gone or its moves do not follow from the
 * state held (then the caller reads it whole).
 */
export async function caughtUp(sql: HotSql, live: LiveGame): Promise<LiveGame | undefined> {
  const [row] = await sql.query<LiveColumns>(liveColumnsStatement, [live.match.id, live.state.position.ply]);
  if (!row) return undefined;
  const { moves, ...columns } = row;
  let state = live.state;
  for (const move of moves) {
    const result = play(state, { square: move.square, dir: move.dir === 1 ? 1 : -1 });
    if (!result.ok) return undefined;
    state = result.state;
  }
  return { match: { ...live.match, ...columns, turnStartedAt: dateOf(columns.turnStartedAt), clockDeadline: dateOf(columns.clockDeadline), firstMoveDeadline: dateOf(columns.firstMoveDeadline), endedAt: dateOf(columns.endedAt), absent0Since: dateOf(columns.absent0Since), absent1Since: dateOf(columns.absent1Since) }, state };
}
