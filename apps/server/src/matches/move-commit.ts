import { randomUUID } from 'node:crypto';
import type { MatchEventEnvelope } from '@oanquan/protocol';
import type { HotSql } from '../db/hot-sql.js';
import type { MatchRow } from './match-store.js';

/**
 * A move in one statement: compare-and-set the match's version (writing the
 * columns a move can change, the ending included), insert the move and its
 * events. When another change got there first the update matches no row, so
 * nothing is inserted and nothing changes; a move id seen before fails the
 * whole statement on its unique index, so nothing changes either.
 */
const commitMoveStatement = {
  name: 'commit-move',
  text: `
    WITH m AS (
      UPDATE match SET version = $3, position = $4::jsonb, clock0_ms = $5, clock1_ms = $6,
        turn_started_at = $7::timestamptz, clock_deadline = $8::timestamptz, status = $9::"MatchStatus",
        winner = $10, end_reason = $11, score0 = $12, score1 = $13, ended_at = $14::timestamptz
      WHERE id = $1::uuid AND version = $2
      RETURNING id),
    mv AS (
      INSERT INTO move (id, match_id, ply, move_id, player_id, square, dir, version, remaining_ms, created_at)
      SELECT $15::uuid, m.id, $16, $17, $18::uuid, $19, $20, $3, $21, $22::timestamptz FROM m),
    ev AS (
      INSERT INTO match_event (match_id, version, payload, created_at)
      SELECT m.id, $2 + e.n, e.payload, $23::timestamptz FROM m, jsonb_array_elements($24::jsonb) WITH ORDINALITY AS e(payload, n))
    SELECT count(*)::int AS applied FROM m`,
};

export interface MoveRecord {
  ply: number;
  moveId: string;
  playerId: string;
  square: number;
  dir: number;
  remainingMs: number | null;
  movedAt: Date;
}

/** How the statement went: applied; the match had moved on (decide again); or the move id was taken. */
export type CommitOutcome = 'applied' | 'conflict' | 'duplicate';

/**
 * Commits `next` (the match row after the move, at its new version) over the
 * row at `fromVersion`, with the move and the envelopes, in one round trip.
 */
export async function commitMove(sql: HotSql, fromVersion: number, next: MatchRow, move: MoveRecord, envelopes: MatchEventEnvelope[], at: Date): Promise<CommitOutcome> {
  try {
    const [row] = await sql.query<{ applied: number }>(commitMoveStatement, [
      next.id,
      fromVersion,
      next.version,
      JSON.stringify(next.position),
      next.clock0Ms,
      next.clock1Ms,
      next.turnStartedAt?.toISOString() ?? null,
      next.clockDeadline?.toISOString() ?? null,
      next.status,
      next.winner,
      next.endReason,
      next.score0,
      next.score1,
      next.endedAt?.toISOString() ?? null,
      randomUUID(),
      move.ply,
      move.moveId,
      move.playerId,
      move.square,
      move.dir,
      move.remainingMs,
      move.movedAt.toISOString(),
      at.toISOString(),
      JSON.stringify(envelopes),
    ]);
    return row?.applied === 1 ? 'applied' : 'conflict';
  } catch (error) {
    if (isMoveIdTaken(error)) return 'duplicate';
    throw error;
  }
}

function isMoveIdTaken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'move_match_id_move_id_key';
}
