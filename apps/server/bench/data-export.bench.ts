/**
 * What one download of a heavy player's data costs: `BENCH_EXPORT_GAMES`
 * ended games (10,000 by default) of `BENCH_EXPORT_PLIES` moves each, written
 * as rows, then streamed by AccountExport as the route streams them. Prints
 * the time and this process's CPU, the file's size, the queries' pages, the
 * most the heap grew over its size before (at every piece, garbage included;
 * with --expose-gc, only what is held, every 25 pieces), and the event
 * loop's delays meanwhile: what a download takes from everyone else on the
 * process.
 * On a scratch PostgreSQL database (PGlite without one).
 */
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { engines, migratedDatabase } from '../src/testing/databases.js';
import { AccountExport, EXPORT_GAMES_PAGE_SIZE } from '../src/data-export/account-export.js';

const GAMES = Number(process.env.BENCH_EXPORT_GAMES ?? 10_000);
const PLIES = Number(process.env.BENCH_EXPORT_PLIES ?? 40);
const engine = engines.includes('postgresql') ? 'postgresql' : 'pglite';
const rules = { emptyQuanIsGap: false, endWhen: 'quan-squares-empty', plyLimit: 400, quanNon: 0, quanValue: 10, skipOrigin: false };

const db = await migratedDatabase(engine);
try {
  const [me, them, room] = [randomUUID(), randomUUID(), randomUUID()];
  const seeding = Date.now();
  await db.prisma.$executeRawUnsafe(`INSERT INTO player (id, name) VALUES ($1::uuid, 'heavy'), ($2::uuid, 'opponent')`, me, them);
  await db.prisma.$executeRawUnsafe(`INSERT INTO room (id, code, rules, created_by_id) VALUES ($1::uuid, 'BENCH', $2::jsonb, $3::uuid)`, room, JSON.stringify(rules), me);
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
    GAMES,
  );
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO move (id, match_id, ply, move_id, player_id, square, dir, version, remaining_ms, created_at)
     SELECT gen_random_uuid(), m.id, p, 'm' || p, CASE WHEN p % 2 = 1 THEN m.player0_id ELSE m.player1_id END,
            CASE WHEN p % 2 = 1 THEN 1 + p % 5 ELSE 7 + p % 5 END, CASE WHEN p % 3 = 0 THEN 1 ELSE -1 END, p + 2, 60000, m.created_at + p * interval '1 second'
     FROM match m, generate_series(1, $2::int) p WHERE m.room_id = $1::uuid`,
    room,
    PLIES,
  );
  await db.prisma.$executeRawUnsafe('ANALYZE');
  console.log(`${engine}: ${GAMES} games of ${PLIES} plies seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

  const identity = { player: { id: me, name: 'heavy' }, session: null, username: null, hasRow: true };
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let bytes = 0;
  let pieces = 0;
  let largestPiece = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for await (const piece of new AccountExport(db).document(identity)) {
    pieces++;
    bytes += Buffer.byteLength(piece);
    largestPiece = Math.max(largestPiece, Buffer.byteLength(piece));
    // With --expose-gc, only what is still held, every 25 pieces.
    if (global.gc && pieces % 25 !== 0) continue;
    global.gc?.();
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    [
      `export: ${seconds.toFixed(2)} s (this process's CPU: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s), ${mb(bytes)} in ${pieces} pieces (largest ${mb(largestPiece)}), ${Math.ceil(GAMES / EXPORT_GAMES_PAGE_SIZE)} pages of ${EXPORT_GAMES_PAGE_SIZE} games`,
      `heap${global.gc ? ' (collected every 25 pieces)' : ' (garbage included)'}: grew by at most ${mb(heapPeak - heapBefore)} over ${mb(heapBefore)}`,
      `event loop delay: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`,
    ].join('\n'),
  );
} finally {
  await db.close();
}
