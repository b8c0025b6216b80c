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
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { engines, migratedDatabase } from '../src/testing/databases.js';
import { AccountExport, EXPORT_GAMES_PAGE_SIZE } from '../src/data-export/account-export.js';
import { seedPlayedGames } from '../src/testing/played-games.js';

const GAMES = Number(process.env.BENCH_EXPORT_GAMES ?? 10_000);
const PLIES = Number(process.env.BENCH_EXPORT_PLIES ?? 40);
const engine = engines.includes('postgresql') ? 'postgresql' : 'pglite';

const db = await migratedDatabase(engine);
try {
  const seeding = Date.now();
  const { me } = await seedPlayedGames(db, GAMES, PLIES);
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
