import type { Database } from '../db/database.js';
import { dateOf, matchRowOf, matchRowSqlWith, type MatchRow } from '../match-records/match-row.js';

/**
 * What the computer needs to decide: the match row (its seats with their
 * levels, its rounds, its room's clock), its moves in order, and when the
 * last was made (an untimed game keeps no turn start of its own).
 */
export type StepMatch = MatchRow & { moves: Array<{ square: number; dir: number }>; lastMoveAt: Date | null };

/**
 * One statement, not Prisma's one query per relation: the computer reads its
 * match after every change of it, so with hundreds of games this read is
 * most of what it asks of the database.
 */
const stepStatement = {
  name: 'computer-step',
  text: matchRowSqlWith(`,
    coalesce((SELECT json_agg(json_build_object('square', mv.square, 'dir', mv.dir) ORDER BY mv.ply)
      FROM move mv WHERE mv.match_id = m.id), '[]'::json) AS moves,
    (SELECT max(mv.created_at) FROM move mv WHERE mv.match_id = m.id) AS "lastMoveAt"`),
};

export async function loadStep(db: Database, matchId: string): Promise<StepMatch | undefined> {
  const [row] = await db.sql.query<StepMatch>(stepStatement, [matchId]);
  return row && { ...matchRowOf(row), moves: row.moves, lastMoveAt: dateOf(row.lastMoveAt) };
}
