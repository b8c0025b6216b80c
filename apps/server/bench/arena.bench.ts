/**
 * One arena with 1,000 players (BENCH_ARENA_PLAYERS) on a scratch database
 * (BENCH_DB: postgresql, the default, or pglite). After WARM_ROUNDS rounds in
 * which every game ends and everyone is paired again (about five games each,
 * so the standings are read from thousands of games), each measured round
 * ends BENCH_ENDED_PER_ROUND random games as results come in and times:
 *   - the pairing tick of the node holding the lock (read the rows, rank,
 *     pair the free players, commit their rooms, build the standings sent),
 *     with its CPU time;
 *   - a standings update alone (read and rank the rows, build the view), as
 *     `GET /api/arenas/<code>` and `arena:watch` do, and the view's size.
 *
 *   pnpm --filter @oanquan/server bench:arena
 */
import pino from 'pino';
import { ArenaDirector } from '../src/arenas/arena-director.js';
import { ArenaService } from '../src/arenas/arena-service.js';
import { loadStandings, viewOf } from '../src/arenas/arena-store.js';
import { migratedDatabase } from '../src/testing/databases.js';
import { formatPercentiles, percentiles } from './load/stats.js';

const PLAYERS = Number(process.env.BENCH_ARENA_PLAYERS ?? 1000);
const WARM_ROUNDS = Number(process.env.WARM_ROUNDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 40);
const ENDED_PER_ROUND = Number(process.env.BENCH_ENDED_PER_ROUND ?? 25);
const engine = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgresql';

const db = await migratedDatabase(engine);
try {
  const creator = await db.prisma.player.create({ data: { name: 'maker', passwordHash: 'x' } });
  const service = new ArenaService(db);
  const made = await service.create({ id: creator.id, name: creator.name }, { pool: '3+2', rules: { preset: 'classic' }, startsAt: new Date().toISOString(), minutes: 60 });
  const arena = await service.find(made.code);
  await db.prisma.player.createMany({ data: Array.from({ length: PLAYERS }, (_, i) => ({ name: `p${i}`, rating: 1200 + ((i * 7919) % 900) })) });
  const players = await db.prisma.player.findMany({ where: { name: { startsWith: 'p' } }, select: { id: true, rating: true } });
  await db.prisma.arenaPlayer.createMany({ data: players.map((p) => ({ arenaId: arena.id, playerId: p.id, rating: p.rating })) });

  let sent = 0;
  const director = new ArenaDirector(db, { paired: () => {}, standings: () => void sent++ }, pino({ level: 'silent' }), { tickMs: 1000, schedule: false });
  const liveGames = () => db.prisma.$queryRaw<Array<{ id: string }>>`
    SELECT m.id FROM arena_game g JOIN match m ON m.id = g.match_id WHERE g.arena_id = ${arena.id}::uuid AND m.status <> 'ended'`;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  async function end(ids: string[]) {
    for (const id of ids) {
      const r = random();
      const [winner, reason] = r < 0.45 ? [0, 'quan-gone'] : r < 0.9 ? [1, 'quan-gone'] : [null, 'repetition'];
      await db.prisma.$executeRaw`UPDATE match SET status = 'ended', winner = ${winner}::int2, end_reason = ${reason}, ended_at = now() WHERE id = ${id}::uuid`;
    }
  }
  async function timedTick() {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const [tick] = await director.tick();
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    return { ms, cpuMs: (used.user + used.system) / 1000, pairs: tick?.pairs.length ?? 0 };
  }

  const first = await timedTick();
  console.log(`${engine}, ${PLAYERS} players: the first tick paired ${first.pairs} games in ${first.ms.toFixed(0)} ms (CPU ${first.cpuMs.toFixed(0)} ms)`);
  for (let round = 0; round < WARM_ROUNDS; round++) {
    await end((await liveGames()).map((g) => g.id));
    await timedTick();
  }
  const games = await db.prisma.arenaGame.count({ where: { arenaId: arena.id } });
  console.log(`after ${WARM_ROUNDS} warm rounds: ${games} games in the arena`);

  const ticks: number[] = [];
  const cpu: number[] = [];
  const updates: number[] = [];
  let pairs = 0;
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const live = (await liveGames()).map((g) => g.id);
    const ended = live.sort(() => random() - 0.5).slice(0, ENDED_PER_ROUND);
    await end(ended);
    const tick = await timedTick();
    ticks.push(tick.ms);
    cpu.push(tick.cpuMs);
    pairs += tick.pairs;
    const t0 = performance.now();
    const { standings, games: rows } = await loadStandings(db.prisma, arena.id);
    const view = viewOf(arena, standings, rows, new Date());
    bytes = JSON.stringify(view).length;
    updates.push(performance.now() - t0);
  }
  console.log(`pairing tick, ${ENDED_PER_ROUND} games ended before each (${pairs} pairs made in ${ROUNDS} ticks): ${formatPercentiles(percentiles(ticks))}`);
  console.log(`  its CPU time in this process: ${formatPercentiles(percentiles(cpu))}`);
  console.log(`standings update (read, rank, build the view): ${formatPercentiles(percentiles(updates))}; the view sent is ${(bytes / 1024).toFixed(0)} KiB`);
  console.log(`standings broadcasts: ${sent}`);
} finally {
  await db.close();
}
