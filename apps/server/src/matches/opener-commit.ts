import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import type { HotSql } from '../db/hot-sql.js';
import type { MatchRow } from '../match-records/match-store.js';
import type { RoundRow } from './opener.js';

/**
 * A hand of the opener in one statement: compare-and-set the match's version
 * (writing the columns the opener can change, the start of play included),
 * write the round as it stands after the hand, and insert the events. When
 * another change got there first the update matches no row, so nothing else
 * is written. The round is written whole: under the version held, it is the
 * round this process read, so the first hand inserts it and the second
 * overwrites it.
 */
const commitHandStatement = {
  name: 'commit-hand',
  text: `
    WITH m AS (
      UPDATE match SET version = $3, status = $4::"MatchStatus", first = $5::smallint, started_at = $6::timestamptz,
        first_move_deadline = $7::timestamptz, position = $8::jsonb, clock0_ms = $9::int, clock1_ms = $10::int,
        turn_started_at = $11::timestamptz, clock_deadline = $12::timestamptz
      WHERE id = $1::uuid AND version = $2
      RETURNING id),
    r AS (
      INSERT INTO opener_round (match_id, round, choice0, choice1, winner, created_at, decided_at)
      SELECT m.id, $13::int, $14::varchar, $15::varchar, $16::smallint, $17::timestamptz, $18::timestamptz FROM m
      ON CONFLICT (match_id, round) DO UPDATE SET choice0 = excluded.choice0, choice1 = excluded.choice1, winner = excluded.winner, decided_at = excluded.decided_at),
    ev AS (
      INSERT INTO match_event (match_id, version, payload, created_at)
      SELECT m.id, $2 + e.n, e.payload, $19::timestamptz FROM m, jsonb_array_elements($20::jsonb) WITH ORDINALITY AS e(payload, n))
    SELECT count(*)::int AS applied FROM m`,
};

/**
 * Commits `next` (the match row after the hand, at its new version, with
 * `round` among its rounds) over the row at `fromVersion`, in one round trip.
 * False when the match had moved on: nothing was written.
 */
export async function commitHand(sql: HotSql, fromVersion: number, next: MatchRow, round: RoundRow, envelopes: MatchEventEnvelope[], at: Date): Promise<boolean> {
  const [row] = await sql.query<{ applied: number }>(commitHandStatement, [
    next.id,
    fromVersion,
    next.version,
    next.status,
    next.first,
    next.startedAt?.toISOString() ?? null,
    next.firstMoveDeadline?.toISOString() ?? null,
    JSON.stringify(next.position),
    next.clock0Ms,
    next.clock1Ms,
    next.turnStartedAt?.toISOString() ?? null,
    next.clockDeadline?.toISOString() ?? null,
    round.round,
    round.choice0,
    round.choice1,
    round.winner,
    round.createdAt.toISOString(),
    round.decidedAt?.toISOString() ?? null,
    at.toISOString(),
    JSON.stringify(envelopes),
  ]);
  return row?.applied === 1;
}

/** The round as it stands after a hand or a forfeit, written in the caller's transaction: inserted by its first hand, updated after. */
export async function writeRound(tx: Tx, round: RoundRow, opened: boolean): Promise<void> {
  if (opened) await tx.openerRound.create({ data: round });
  else await tx.openerRound.update({ where: { matchId_round: { matchId: round.matchId, round: round.round } }, data: { choice0: round.choice0, choice1: round.choice1, winner: round.winner, decidedAt: round.decidedAt } });
}
