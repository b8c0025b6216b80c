import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import type { HotSql } from '../db/hot-sql.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { MatchRow } from '../match-records/match-store.js';
import { pairMayBeRated } from '../ratings/rating-service.js';

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
      INSERT INTO match (id, room_id, number, status, rules, rated, player0_id, player1_id, position, created_at, pair_game)
      SELECT $6::uuid, $7::uuid, $8::int, 'opener'::"MatchStatus", $9::jsonb, $10::boolean, $11::uuid, $12::uuid, $13::jsonb, $14::timestamptz, $16::smallint
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
export async function commitRematch(sql: HotSql, fromVersion: number, after: MatchRow, created: MatchRow | null, envelopes: MatchEventEnvelope[], at: Date): Promise<boolean> {
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
    created?.pairGame ?? null,
  ]);
  return row?.applied === 1;
}

/** The new match of an accepted rematch, inserted in the caller's transaction: the same row as the statement's. */
export async function insertRematch(tx: Tx, created: MatchRow): Promise<void> {
  const { id, roomId, number, rated, pairGame, player0Id, player1Id, createdAt } = created;
  const json = (value: unknown) => value as Prisma.InputJsonValue;
  await tx.match.create({ data: { id, roomId, number, status: 'opener', rules: json(created.rules), rated, pairGame, player0Id, player1Id, position: json(created.position), createdAt } });
}

/**
 * The match an accepted rematch opens, rated only while the pair's rated
 * games leave room for a whole pairing, as the queue asks when it pairs them
 * (see `pairMayBeRated`); past that it is played casually, and says so from
 * its start rather than at its end.
 */
export async function rematchWithinPairLimit(tx: Tx, created: MatchRow, now: Date): Promise<MatchRow> {
  if (!created.rated || (await pairMayBeRated(tx, [created.player0Id!, created.player1Id!], now))) return created;
  return { ...created, rated: false, pairGame: null };
}
