/**
 * One arena with 1,000 players (BENCH_ARENA_PLAYERS) on a scratch database
 * (BENCH_DB: postgresql, the default, or pglite). After WARM_ROUNDS rounds in
 * which every game ends and everyone is paired again (about five games each,
 * so the standings are read from thousands of games), each measured round
 * ends BENCH_ENDED_PER_ROUND random games as results come in and times:
 *   - the pairing tick of the node holding the lock (read the rows, rank,
 *     pair the free players, commit their rooms, build the standings sent),
 *     with its CPU time;
 *   - a standings read as `GET /api/arenas/<code>` and `arena:watch` serve
 *     it (a page and the reader's own line, from the board in memory), its
 *     CPU per read and its size, and a push's size;
 *   - beside them, what every read cost before boards: the standings made
 *     from every row (a fresh board) and sent whole.
 * BENCH_BOARD=0 leaves that out. Then (BENCH_FLOOD=0 leaves it out) the floods beside people's games, see
 * arena-flood.ts.
 *
 *   pnpm --filter @oanquan/server bench:arena
 */
import pino from 'pino';
import { ARENA_PAGE_SIZE } from '@oanquan/protocol';
import { ArenaDirector } from '../src/arenas/arena-director.js';
import { ARENA_REPEAT_AFTER_MS } from '../src/arenas/arena-pairing.js';
import { ArenaService } from '../src/arenas/arena-service.js';
import { ArenaBoard } from '../src/arenas/arena-board.js';
import { refreshBoard, viewOf, type ArenaGameRow } from '../src/arenas/arena-store.js';
import { migratedDatabase } from '../src/testing/databases.js';
import { floodsBesidePeople } from './arena-flood.js';
import { formatPercentiles, percentiles } from './load/stats.js';

const PLAYERS = Number(process.env.BENCH_ARENA_PLAYERS ?? 1000);
const WARM_ROUNDS = Number(process.env.WARM_ROUNDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 40);
const ENDED_PER_ROUND = Number(process.env.BENCH_ENDED_PER_ROUND ?? 25);
const READS_PER_ROUND = Number(process.env.BENCH_READS_PER_ROUND ?? 200);
const engine = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgresql';

/** The standings read beside the pairing ticks, in this process. */
async function boardReads(): Promise<void> {
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
    let pushed = 0;
    const director = new ArenaDirector(db, { paired: () => {}, standings: (view) => ((pushed = JSON.stringify(view).length), sent++) }, pino({ level: 'silent' }), { tickMs: 1000, schedule: false });
    // Rows read at every read, as a process serving many readers would not: the cost of a read past its tick.
    const reads = new ArenaService(db, undefined, 1000);
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
    const rebuilds: number[] = [];
    const readCpu: number[] = [];
    const refreshCpu: number[] = [];
    let pairs = 0;
    let bytes = 0;
    let oldBytes = 0;
    const readers = players.map((p) => p.id);
    for (let round = 0; round < ROUNDS; round++) {
      const live = (await liveGames()).map((g) => g.id);
      const ended = live.sort(() => random() - 0.5).slice(0, ENDED_PER_ROUND);
      await end(ended);
      const tick = await timedTick();
      ticks.push(tick.ms);
      cpu.push(tick.cpuMs);
      pairs += tick.pairs;
      // Before boards, every read: every row read and ranked, every line sent.
      let cpu0 = process.cpuUsage();
      const board = await refreshBoard(db.prisma, arena.id, new ArenaBoard<ArenaGameRow>());
      const whole = viewOf(arena, board, 1, null, new Date(), ARENA_REPEAT_AFTER_MS);
      oldBytes = JSON.stringify({ ...whole, standings: board.standings() }).length;
      rebuilds.push(cpuMs(cpu0));
      // Now: the first read after the tick brings the board up to the rows, the others are served from it.
      cpu0 = process.cpuUsage();
      await reads.view(made.code, 1, readers[round]!);
      refreshCpu.push(cpuMs(cpu0));
      cpu0 = process.cpuUsage();
      for (let i = 0; i < READS_PER_ROUND; i++) {
        const page = 1 + (i % Math.ceil(PLAYERS / ARENA_PAGE_SIZE));
        bytes = JSON.stringify(await reads.view(made.code, page, readers[i % readers.length]!)).length;
      }
      readCpu.push(cpuMs(cpu0) / READS_PER_ROUND);
    }
    console.log(`pairing tick, ${ENDED_PER_ROUND} games ended before each (${pairs} pairs made in ${ROUNDS} ticks): ${formatPercentiles(percentiles(ticks))}`);
    console.log(`  its CPU time in this process: ${formatPercentiles(percentiles(cpu))}`);
    console.log(`before boards, each read (every row read and ranked), CPU: ${formatPercentiles(percentiles(rebuilds))}; ${(oldBytes / 1024).toFixed(0)} KiB sent`);
    console.log(`a read now (a page and the reader's line, from memory), CPU per read: ${formatPercentiles(percentiles(readCpu))}; ${(bytes / 1024).toFixed(1)} KiB per read`);
    console.log(`  the first read after a tick (the board brought up to the rows), CPU: ${formatPercentiles(percentiles(refreshCpu))}`);
    console.log(`standings pushes: ${sent} in ${ROUNDS + WARM_ROUNDS + 1} ticks, the last ${(pushed / 1024).toFixed(1)} KiB`);
  } finally {
    await db.close();
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

if (process.env.BENCH_BOARD !== '0') await boardReads();
if (process.env.BENCH_FLOOD !== '0') await floodsBesidePeople();
process.exit(0);
