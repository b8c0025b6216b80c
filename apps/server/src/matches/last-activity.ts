import type { Tx } from '../db/database.js';
import { dateOf } from '../match-records/match-row.js';

/**
 * When a match last changed: its latest event's time, or its making when it
 * has none (a pairing is made straight into its opener, with no event). The
 * idle opener's time (see decideIdleOpener) counts from here.
 */
export async function lastActivityOf(tx: Tx, match: { id: string; createdAt: Date }): Promise<Date> {
  const [latest] = await tx.$queryRaw<Array<{ at: Date | string }>>`
    SELECT created_at AS at FROM match_event WHERE match_id = ${match.id}::uuid ORDER BY version DESC LIMIT 1`;
  const at = latest ? dateOf(latest.at)! : match.createdAt;
  return at > match.createdAt ? at : match.createdAt;
}
