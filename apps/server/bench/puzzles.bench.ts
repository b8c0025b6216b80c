/**
 * The puzzle jobs beside people's games: move acks of people playing each
 * other (`BENCH_PUZZLE_PAIRS` pairs at once, each playing
 * `BENCH_PUZZLE_GAMES` scripted games) on a server without puzzle work, then
 * on a server making puzzles from self-play the whole time (the seeding of a
 * new site, which shares its one low-priority engine thread with the miner).
 * Prints the ack percentiles, event-loop delays and the server main
 * thread's CPU per ack of both phases, their ratios, and how many puzzles
 * the job stored meanwhile. Each phase runs its
 * own server process on a scratch PostgreSQL database (PGlite without one).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { freePort, startServerProcess } from '@oanquan/testkit';
import { engines, scratchTarget } from '../src/testing/databases.js';
import { metricSample } from '../src/testing/metric-sample.js';
import { waitFor } from '../src/testing/wait-for.js';
import { peoplePlaying, percentiles, quantile } from './people-playing.js';

const PAIRS = Number(process.env.BENCH_PUZZLE_PAIRS ?? 10);
const GAMES = Number(process.env.BENCH_PUZZLE_GAMES ?? 3);
const engine = engines.includes('postgresql') ? 'postgresql' : 'pglite';

/**
 * CPU seconds of the server's main thread (its event loop), from
 * /proc/<pid>/task/<pid>/stat: the engine's worker threads, whose tids
 * differ, are not in it, so this is what the job costs the thread people's
 * moves run on.
 */
function mainThreadCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are the 14th and 15th fields, in clock ticks (100 a second on Linux).
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) / 100;
}

interface Phase {
  cpuMsPerAck: number;
  acks: number[];
  loopP99: number;
  loopMax: number;
  puzzles: number | null;
  seconds: number;
}

async function phase(puzzlesAtStart: string): Promise<Phase> {
  const scratch = await scratchTarget(engine);
  const database: Record<string, string> = scratch.target.kind === 'postgresql' ? { DATABASE_URL: scratch.target.url } : {};
  const metricsPort = await freePort();
  const server = await startServerProcess({
    ...database,
    PUZZLES_AT_START: puzzlesAtStart,
    LOG_LEVEL: 'warn',
    MAX_SOCKETS_PER_ADDRESS: '1000',
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: '127.0.0.1',
  });
  const stored = async (): Promise<number | null> => {
    if (scratch.target.kind !== 'postgresql') return null;
    const client = new pg.Client({ connectionString: scratch.target.url });
    await client.connect();
    try {
      return Number((await client.query('SELECT count(*) AS n FROM puzzle')).rows[0].n);
    } finally {
      await client.end();
    }
  };
  try {
    // Measured once the job is at work (its thread started, its first puzzle stored), not while it starts.
    if (puzzlesAtStart !== '0') await waitFor('the first puzzle', async () => ((await stored()) ?? 1) > 0, { timeoutMs: 300_000, everyMs: 250 });
    const before = await stored();
    const metrics = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    await metrics();
    const cpuBefore = mainThreadCpu(server.child.pid!);
    const started = performance.now();
    const acks = (await Promise.all(Array.from({ length: PAIRS }, () => peoplePlaying(server.url, () => true, GAMES)))).flat();
    const seconds = (performance.now() - started) / 1000;
    const cpuMsPerAck = ((mainThreadCpu(server.child.pid!) - cpuBefore) * 1000) / acks.length;
    const text = await metrics();
    const loop = (name: string) => (metricSample(text, `oanquan_nodejs_eventloop_lag_${name}_seconds`) ?? NaN) * 1000;
    const after = await stored();
    const puzzles = after === null || before === null ? null : after - before;
    return { cpuMsPerAck, acks, loopP99: loop('p99'), loopMax: loop('max'), puzzles, seconds };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await scratch.drop();
  }
}

const show = (name: string, result: Phase) =>
  console.log(
    `${name}: move ack ${percentiles(result.acks)} over ${result.seconds.toFixed(0)} s; server event-loop delay p99 ${result.loopP99.toFixed(1)} ms, max ${result.loopMax.toFixed(1)} ms; main-thread CPU ${result.cpuMsPerAck.toFixed(2)} ms per ack` +
      (result.puzzles === null ? '' : `; puzzles stored meanwhile ${result.puzzles}`),
  );

console.log(`engine ${engine}, ${PAIRS} pairs of people at once, ${GAMES} games each; load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const floor = await phase('0');
show('no puzzle work (floor)', floor);
const busy = await phase('100000');
show('puzzles made from self-play the whole time', busy);
const ratio = (p: number) => {
  const at = (values: number[]) => quantile([...values].sort((x, y) => x - y), p);
  return (at(busy.acks) / at(floor.acks)).toFixed(2);
};
console.log(`ratio busy / floor: p50 ${ratio(50)}, p90 ${ratio(90)}, p99 ${ratio(99)}, main-thread CPU per ack ${(busy.cpuMsPerAck / floor.cpuMsPerAck).toFixed(2)}; load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
process.exit(0);
