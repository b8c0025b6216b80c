import type { Tx } from '../db/database.js';

/**
 * Whether a match had only outage credits after `version`: they change no
 * position, so a move made on that version (sent while the service was
 * down, say) still stands on the current one.
 */
export async function onlyCreditsSince(tx: Tx, matchId: string, version: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ changed: boolean }>>`
    SELECT EXISTS (
      SELECT 1 FROM match_event WHERE match_id = ${matchId}::uuid AND version > ${version} AND payload->'event'->>'type' <> 'outage-credited'
    ) AS changed`;
  return row?.changed === false;
}
