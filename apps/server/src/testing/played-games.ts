import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';

const rules = { emptyQuanIsGap: false, endWhen: 'quan-squares-empty', plyLimit: 400, quanNon: 0, quanValue: 10, skipOrigin: false };

/**
 * `games` ended games of `plies` moves each between two new players, written
 * straight as rows (a few seconds for ten thousand): a heavy player's
 * history, for what reads it all. Answers the two players' ids.
 */
export async function seedPlayedGames(db: Database, games: number, plies: number): Promise<{ me: string; them: string }> {
  const [me, them, room] = [randomUUID(), randomUUID(), randomUUID()];
  await db.prisma.$executeRawUnsafe(`INSERT INTO player (id, name) VALUES ($1::uuid, 'heavy'), ($2::uuid, 'opponent')`, me, them);
  await db.prisma.$executeRawUnsafe(`INSERT INTO room (id, code, rules, created_by_id) VALUES ($1::uuid, $2, $3::jsonb, $4::uuid)`, room, room.slice(0, 16), JSON.stringify(rules), me);
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO match (id, room_id, number, status, rules, player0_id, player1_id, first, position, winner, end_reason, score0, score1, created_at, started_at, ended_at)
     SELECT gen_random_uuid(), $1::uuid, g, 'ended', $2::jsonb,
            CASE WHEN g % 2 = 0 THEN $3::uuid ELSE $4::uuid END, CASE WHEN g % 2 = 0 THEN $4::uuid ELSE $3::uuid END,
            0, '{}'::jsonb, g % 2, 'resign', 30, 40, now() - g * interval '1 minute', now() - g * interval '1 minute', now() - g * interval '1 minute' + interval '5 minutes'
     FROM generate_series(1, $5::int) g`,
    room,
    JSON.stringify(rules),
    me,
    them,
    games,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO move (id, match_id, ply, move_id, player_id, square, dir, version, remaining_ms, created_at)
     SELECT gen_random_uuid(), m.id, p, 'm' || p, CASE WHEN p % 2 = 1 THEN m.player0_id ELSE m.player1_id END,
            CASE WHEN p % 2 = 1 THEN 1 + p % 5 ELSE 7 + p % 5 END, CASE WHEN p % 3 = 0 THEN 1 ELSE -1 END, p + 2, 60000, m.created_at + p * interval '1 second'
     FROM match m, generate_series(1, $2::int) p WHERE m.room_id = $1::uuid`,
    room,
    plies,
  );
  await db.prisma.$executeRawUnsafe('ANALYZE');
  return { me, them };
}
