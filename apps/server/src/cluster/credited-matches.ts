import type { MatchEvent, MatchEventEnvelope, Seat } from '@oanquan/protocol';
import type { Prisma } from '../generated/prisma/client.js';
import { clocksOnWire } from '../match-records/clock.js';
import { dateOf } from '../match-records/match-row.js';

/** A credited match's event, with the room whose clients follow it. */
export interface CreditedMatch {
  roomCode: string;
  envelope: MatchEventEnvelope;
}

type Stamp = Date | string;

interface PlayingRow {
  id: string;
  version: number;
  roomCode: string;
  clock0Ms: number | null;
  clock1Ms: number | null;
  turnStartedAt: Stamp | null;
  firstMoveDeadline: Stamp | null;
  toMove: Seat;
  ply: number;
  initialMs: number | null;
  incrementMs: number | null;
}

interface OpenerRow {
  id: string;
  version: number;
  roomCode: string;
  roundFrom: Stamp;
}

/**
 * Moves on by `creditMs` the clocks and deadlines of every match that has
 * one running (a clock, an awaited first move, an opener's open round), in
 * the caller's transaction. Each such match gets an `outage-credited` event
 * at its next version, stored as every event is: clients that were told the
 * old deadlines learn the new ones now, or by version when they resync.
 */
export async function creditMatches(tx: Prisma.TransactionClient, creditMs: number, openerTimeoutMs: number, at: Date): Promise<CreditedMatch[]> {
  const playing = await tx.$queryRaw<PlayingRow[]>`
    UPDATE match m SET
      turn_started_at = m.turn_started_at + ${creditMs}::int * interval '1 millisecond',
      clock_deadline = m.clock_deadline + ${creditMs}::int * interval '1 millisecond',
      first_move_deadline = m.first_move_deadline + ${creditMs}::int * interval '1 millisecond',
      version = m.version + 1
    FROM room r
    WHERE r.id = m.room_id AND m.status = 'playing' AND (m.turn_started_at IS NOT NULL OR (m.position->>'ply')::int = 0)
    RETURNING m.id::text AS id, m.version, r.code AS "roomCode", m.clock0_ms AS "clock0Ms", m.clock1_ms AS "clock1Ms",
      m.turn_started_at AS "turnStartedAt", m.first_move_deadline AS "firstMoveDeadline",
      (m.position->>'toMove')::int AS "toMove", (m.position->>'ply')::int AS ply, r.initial_ms AS "initialMs", r.increment_ms AS "incrementMs"`;
  // The opener's deadline is reckoned from when its open round began.
  const openers = await tx.$queryRaw<OpenerRow[]>`
    WITH rounds AS (
      UPDATE opener_round o SET created_at = o.created_at + ${creditMs}::int * interval '1 millisecond'
      FROM match m WHERE m.id = o.match_id AND m.status = 'opener' AND o.decided_at IS NULL
      RETURNING o.match_id, o.created_at)
    UPDATE match m SET version = m.version + 1
    FROM rounds, room r
    WHERE m.id = rounds.match_id AND r.id = m.room_id
    RETURNING m.id::text AS id, m.version, r.code AS "roomCode", rounds.created_at AS "roundFrom"`;
  const credited = (row: { id: string; version: number; roomCode: string }, event: Omit<Extract<MatchEvent, { type: 'outage-credited' }>, 'type' | 'creditMs'>): CreditedMatch => ({
    roomCode: row.roomCode,
    envelope: { matchId: row.id, version: row.version, at: at.toISOString(), event: { type: 'outage-credited', creditMs, ...event } },
  });
  const matches = [
    ...playing.map((row) => {
      const clockRow = { clock0Ms: row.clock0Ms, clock1Ms: row.clock1Ms, turnStartedAt: dateOf(row.turnStartedAt) };
      const firstMoveDeadline = row.ply === 0 ? (dateOf(row.firstMoveDeadline)?.toISOString() ?? null) : null;
      return credited(row, { clocks: clocksOnWire(clockRow, row, row.toMove, at), firstMoveDeadline, openerDeadline: null });
    }),
    ...openers.map((row) => credited(row, { clocks: null, firstMoveDeadline: null, openerDeadline: new Date(dateOf(row.roundFrom)!.getTime() + openerTimeoutMs).toISOString() })),
  ];
  if (matches.length) {
    await tx.matchEvent.createMany({
      data: matches.map(({ envelope }) => ({ matchId: envelope.matchId, version: envelope.version, payload: envelope, createdAt: at })),
    });
  }
  return matches;
}
