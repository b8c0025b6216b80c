import { randomUUID } from 'node:crypto';
import { newGame, type RuleOptions } from '@oanquan/rules';
import type { TimeControl } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { newRoomCode } from '../rooms/room-code.js';

export interface ArenaPairing {
  seats: [string, string];
  rated: boolean;
}

/**
 * The rooms of a tick's pairs, each with its first match seated and at the
 * opener (what insertRoom makes for one queue pair), and their arena games:
 * three statements for any number of pairs, so a tick that pairs a crowd
 * holds the pairing lock for a few round trips rather than a few per pair.
 * Both players are absent from the pairing on, as insertRoom records them.
 */
export async function insertArenaRooms(
  tx: Pick<Tx, '$executeRaw'>,
  arenaId: string,
  options: { rules: RuleOptions; timeControl: TimeControl },
  pairings: readonly ArenaPairing[],
): Promise<Array<{ roomCode: string; matchId: string; createdAt: Date }>> {
  if (pairings.length === 0) return [];
  const made = pairings.map(() => ({ roomId: randomUUID(), roomCode: newRoomCode(), matchId: randomUUID() }));
  const rules = JSON.stringify(options.rules);
  const position = JSON.stringify(newGame({ rules: options.rules }).position);
  const roomIds = made.map((m) => m.roomId);
  const matchIds = made.map((m) => m.matchId);
  const first = pairings.map((p) => p.seats[0]);
  const second = pairings.map((p) => p.seats[1]);
  const rated = pairings.map((p) => p.rated);
  const createdAt = new Date();
  await tx.$executeRaw`
    INSERT INTO room (id, code, rules, initial_ms, increment_ms, created_by_id, rated, created_at)
    SELECT id, code, ${rules}::jsonb, ${options.timeControl.initialSeconds * 1000}::int, ${options.timeControl.incrementSeconds * 1000}::int, creator, rated, ${createdAt}
    FROM unnest(${roomIds}::uuid[], ${made.map((m) => m.roomCode)}::text[], ${first}::uuid[], ${rated}::boolean[]) AS t(id, code, creator, rated)`;
  await tx.$executeRaw`
    INSERT INTO match (id, room_id, number, status, rules, rated, position, player0_id, player1_id, created_at, absent0_since, absent1_since)
    SELECT id, room_id, 1, 'opener', ${rules}::jsonb, rated, ${position}::jsonb, p0, p1, ${createdAt}, ${createdAt}, ${createdAt}
    FROM unnest(${matchIds}::uuid[], ${roomIds}::uuid[], ${rated}::boolean[], ${first}::uuid[], ${second}::uuid[]) AS t(id, room_id, rated, p0, p1)`;
  await tx.$executeRaw`
    INSERT INTO arena_game (match_id, arena_id, player0_id, player1_id, created_at)
    SELECT id, ${arenaId}::uuid, p0, p1, ${createdAt}
    FROM unnest(${matchIds}::uuid[], ${first}::uuid[], ${second}::uuid[]) AS t(id, p0, p1)`;
  return made.map((m) => ({ roomCode: m.roomCode, matchId: m.matchId, createdAt }));
}
