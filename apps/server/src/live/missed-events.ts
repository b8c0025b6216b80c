import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { HotSql } from '../db/hot-sql.js';

/**
 * What a client missed, in one round trip: the match's version and, when the
 * gap is one the events can fill (`version` not ahead, at most `maxEvents`
 * behind), those events in order; undefined when there is no such match.
 */
const missedEventsStatement = {
  name: 'missed-events',
  text: `
    SELECT m.version,
      CASE WHEN m.version >= $2 AND m.version - $2 <= $3 THEN
        (SELECT coalesce(json_agg(e.payload ORDER BY e.version), '[]'::json) FROM match_event e WHERE e.match_id = m.id AND e.version > $2)
      END AS events
    FROM match m WHERE m.id = $1::uuid`,
};

export async function missedEvents(sql: HotSql, matchId: string, version: number, maxEvents: number): Promise<{ version: number; events: MatchEventEnvelope[] | null } | undefined> {
  const [row] = await sql.query<{ version: number; events: MatchEventEnvelope[] | null }>(missedEventsStatement, [matchId, version, maxEvents]);
  return row;
}
