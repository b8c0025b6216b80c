/**
 * The arena floods beside people's games, on a server process of its own
 * (PostgreSQL, PGlite when no server answers): two people playing each
 * other move after move (BENCH_DB as for the arena bench), for BENCH_PHASE_SECONDS without a flood and as
 * long with one, in BENCH_BLOCKS (4) blocks of each in turn, all of it from one address (the server trusts the bench's
 * X-Forwarded-For): BENCH_FLOOD_READERS guests each reading pages of a
 * private arena's standings BENCH_FLOOD_READS_PER_SECOND times a second
 * (answered or not), and BENCH_FLOOD_JOINERS
 * guests joining it, then joining and pausing BENCH_FLOOD_ENTRIES_PER_SECOND
 * times a second. Spectators watching the arena count what is pushed to
 * them. Prints people's ack p50/p99 in both phases and their ratio, what
 * the flood was answered (by status), and the bytes per push.
 *
 * Pinned (BENCH_PIN=0 leaves it out): the server and a PostgreSQL of the
 * run's own on core 0, this process (people, watchers) and the flood's
 * clients on core 1, so that the clients' work is not taken from the
 * server's core; each phase then tells the event-loop delay (server and
 * people's clients) by block, and the server's CPU (its process and
 * its database's) per move, and in the flood per request beyond what the
 * moves cost without it. BENCH_CPU_PROF=<dir> writes the server's CPU
 * profile there (node --cpu-prof) when it stops.
 *
 *   BENCH_BOARD=0 pnpm --filter @oanquan/server bench:arena
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ArenaView } from '@oanquan/protocol';
import { freePort, startServerProcess } from '@oanquan/testkit';
import { scratchTarget } from '../src/testing/databases.js';
import { api, newAccount, newGuest, TestClient } from '../src/testing/live.js';
import { pinnedPostgres } from './load/pinning.js';
import { ProcessGroupWatch } from './load/process-stats.js';
import { peoplePlaying, quantile } from './people-playing.js';
import { pin, serverLoopDelay, watchServer } from './server-share.js';

const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 20);
/** Each phase is cut in this many blocks, quiet and flooded in turn. */
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 4);
const READERS = Number(process.env.BENCH_FLOOD_READERS ?? 20);
const READS_PER_SECOND = Number(process.env.BENCH_FLOOD_READS_PER_SECOND ?? 30);
const JOINERS = Number(process.env.BENCH_FLOOD_JOINERS ?? 300);
const ENTRIES_PER_SECOND = Number(process.env.BENCH_FLOOD_ENTRIES_PER_SECOND ?? 30);
const PAIRS = Number(process.env.BENCH_PEOPLE_PAIRS ?? 2);
const WATCHERS = 3;
const FLOOD_ADDRESS = '198.51.100.23';
const PINNED = process.env.BENCH_PIN !== '0';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const SERVER_CORE = 0;
const CLIENTS_CORE = 1;

/** What the server's core spent over a phase: its process and its database's, in ms; and where an ack may have waited. */
interface PhaseCpu {
  serverMs: number;
  databaseMs: number;
  /** The event-loop delay p99 of the server and of this process (people's clients), in ms. */
  serverLoopP99: number;
  clientsLoopP99: number;
}

export async function floodsBesidePeople(): Promise<void> {
  const engine = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgresql';
  // Pinned, the machine's PostgreSQL (shared with others, not to be moved) is replaced by one of the run's own on the server's core.
  const ownPostgres = PINNED && engine === 'postgresql' ? await pinnedPostgres(SERVER_CORE) : null;
  const metricsPort = await freePort();
  const scratch = ownPostgres ? await ownPostgres.database() : await scratchTarget(engine).then((s) => ({ url: s.target.kind === 'postgresql' ? s.target.url : null, drop: s.drop }));
  const server = await startServerProcess({
    ...(scratch.url ? { DATABASE_URL: scratch.url } : {}),
    LOG_LEVEL: 'warn',
    ARENA_SCHEDULE: 'off',
    TRUST_PROXY: 'loopback',
    // The flood's guests and sockets are not what is measured here.
    RATE_LIMIT_GUESTS_PER_HOUR: '100000',
    MAX_SOCKETS_PER_ADDRESS: '100000',
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: '127.0.0.1',
  }, { nodeArgs: CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [] });
  const url = server.url;
  const pinned = PINNED && pin(server.child.pid!, SERVER_CORE) && pin(process.pid, CLIENTS_CORE);
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const clientsLoop = monitorEventLoopDelay({ resolution: 10 });
  clientsLoop.enable();
  const watch = async () => {
    await serverLoopDelay(metricsUrl);
    clientsLoop.reset();
    const serverWatch = watchServer(server.child.pid!);
    const databaseWatch = ownPostgres ? new ProcessGroupWatch(() => ownPostgres.pids()) : null;
    return async (): Promise<PhaseCpu> => {
      const cpu = serverWatch.stop();
      const databaseMs = (databaseWatch?.stop() ?? NaN) * 1000;
      return { serverMs: cpu.mainMs + cpu.nicedMs + cpu.otherMs, databaseMs, serverLoopP99: (await serverLoopDelay(metricsUrl)).p99, clientsLoopP99: clientsLoop.percentile(99) / 1e6 };
    };
  };
  // A server that dies under the flood says why.
  let stopping = false;
  void server.exited.then((code) => {
    if (!stopping) console.error(`flood bench: the server exited (${code}):\n${server.output().slice(-4000)}`);
  });
  try {
    const maker = await newAccount(url);
    const code = (await api<ArenaView>(url, '/api/arenas', { token: maker.token, body: { pool: '3+2', startsAt: new Date().toISOString(), minutes: 60 } })).body.code;
    const watchers = await Promise.all(Array.from({ length: WATCHERS }, async () => TestClient.connect(url, (await newGuest(url)).token)));
    const pushes = { count: 0, bytes: 0 };
    for (const watcher of watchers) {
      watcher.socket.on('arena:standings', (view) => {
        pushes.count++;
        pushes.bytes += JSON.stringify(view).length;
      });
      await watcher.request('arena:watch', { code });
    }
    const clients = floodClients(url, code, pinned);
    await clients.ready;
    console.error('flood bench: people play without the flood');

    const people = async (seconds: number) => {
      const endsAt = performance.now() + seconds * 1000;
      const runs = await Promise.all(Array.from({ length: PAIRS }, () => peoplePlaying(url, () => performance.now() > endsAt, 0)));
      return runs.flat();
    };
    // Quiet and flooded blocks in turn, so that a neighbour's load that comes and goes weighs on both alike.
    const quiet: number[] = [];
    const flooded: number[] = [];
    const quietCpu: PhaseCpu[] = [];
    const floodCpu: PhaseCpu[] = [];
    const pushedBefore = { count: 0, bytes: 0 };
    const pushed = { count: 0, bytes: 0 };
    for (let block = 0; block < BLOCKS; block++) {
      let stopWatch = await watch();
      quiet.push(...(await people(PHASE_SECONDS / BLOCKS)));
      quietCpu.push(await stopWatch());
      Object.assign(pushedBefore, pushes);
      console.error(`flood bench: block ${block + 1} of ${BLOCKS}, beside the flood`);
      stopWatch = await watch();
      clients.go();
      flooded.push(...(await people(PHASE_SECONDS / BLOCKS)));
      await clients.pause();
      floodCpu.push(await stopWatch());
      pushed.count += pushes.count - pushedBefore.count;
      pushed.bytes += pushes.bytes - pushedBefore.bytes;
    }
    const answered = await clients.stop();
    quiet.sort((x, y) => x - y);
    flooded.sort((x, y) => x - y);

    const p = (values: number[], q: number) => quantile(values, q).toFixed(1);
    console.log(`\nfloods beside people's games (${engine}, ${PAIRS} pairs, ${PHASE_SECONDS} s a phase; ${READERS} readers, ${JOINERS} joiners then ${ENTRIES_PER_SECOND} joins and pauses a second, one address):`);
    console.log(`  ${pinned ? `pinned: the server and its own PostgreSQL on core ${SERVER_CORE}, people, watchers and the flood's clients on core ${CLIENTS_CORE}` : 'unpinned'}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`  people's move acks without the flood: p50 ${p(quiet, 50)} ms, p99 ${p(quiet, 99)} ms (${quiet.length})`);
    console.log(`  people's move acks with the flood:    p50 ${p(flooded, 50)} ms, p99 ${p(flooded, 99)} ms (${flooded.length})`);
    console.log(`  p99 with / without: ${(quantile(flooded, 99) / quantile(quiet, 99)).toFixed(2)}`);
    const loops = (blocks: PhaseCpu[]) =>
      `server ${blocks.map((b) => b.serverLoopP99.toFixed(0)).join('/')} ms, people's clients ${blocks.map((b) => b.clientsLoopP99.toFixed(0)).join('/')} ms`;
    console.log(`  event-loop delay p99 by block without the flood: ${loops(quietCpu)}; with it: ${loops(floodCpu)}`);
    console.log(`  the flood was answered: ${Object.entries(answered).sort().map(([k, n]) => `${k}: ${n}`).join(', ')}`);
    const requests = Object.values(answered).reduce((sum, n) => sum + n, 0);
    console.log(`  ${cpuPerOperation(total(quietCpu), quiet.length, total(floodCpu), flooded.length, requests)}`);
    const each = pushed.count / WATCHERS;
    console.log(`  pushed to each watcher: ${each.toFixed(0)} pushes, ${(pushed.bytes / WATCHERS / 1024).toFixed(1)} KiB, ${(pushed.count ? pushed.bytes / pushed.count / 1024 : 0).toFixed(1)} KiB per push`);
    for (const watcher of watchers) watcher.close();
  } finally {
    stopping = true;
    server.child.kill('SIGTERM');
    await server.exited;
    await scratch.drop();
    await ownPostgres?.destroy();
  }
}

function total(blocks: PhaseCpu[]): PhaseCpu {
  const sum = (of: (b: PhaseCpu) => number) => blocks.reduce((x, b) => x + of(b), 0);
  return { serverMs: sum((b) => b.serverMs), databaseMs: sum((b) => b.databaseMs), serverLoopP99: NaN, clientsLoopP99: NaN };
}

/**
 * The server's CPU per move without the flood, and per flood request with
 * it: what the flood phase spent beyond its moves at the quiet phase's cost
 * per move, over the requests the flood sent.
 */
function cpuPerOperation(quiet: PhaseCpu, quietMoves: number, flood: PhaseCpu, floodMoves: number, requests: number): string {
  const perMove = (ms: number) => ms / quietMoves;
  const perRequest = (floodMs: number, quietMs: number) => (floodMs - floodMoves * perMove(quietMs)) / requests;
  const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
  return (
    `server CPU: ${ms(perMove(quiet.serverMs))} ms a move without the flood (its database ${ms(perMove(quiet.databaseMs))} ms); ` +
    `with it ${(flood.serverMs / 1000).toFixed(1)} s in all, ${ms(perRequest(flood.serverMs, quiet.serverMs))} ms a flood request beyond the moves (its database ${ms(perRequest(flood.databaseMs, quiet.databaseMs))} ms)`
  );
}

/**
 * The flood's clients in a process of their own (arena-flood-clients.ts), below people's on the scheduler as an
 * attacker's machines would be, so that their thousands of requests do not delay the acks measured here.
 */
function floodClients(url: string, code: string, pinned: boolean) {
  const command = [process.execPath, '--import', 'tsx', 'bench/arena-flood-clients.ts'];
  // Lowest priority: pinned beside people's clients, whose acks are timed, as an attacker's machines are not theirs.
  const child = spawn('nice', ['-n', '19', ...command], {
    env: {
      ...process.env,
      FLOOD_URL: url,
      FLOOD_CODE: code,
      FLOOD_ADDRESS,
      FLOOD_READERS: String(READERS),
      FLOOD_READS_PER_SECOND: String(READS_PER_SECOND),
      FLOOD_JOINERS: String(JOINERS),
      FLOOD_ENTRIES_PER_SECOND: String(ENTRIES_PER_SECOND),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // `nice` becomes node itself (exec): same process id.
  if (pinned) pin(child.pid!, CLIENTS_CORE);
  const messages = createInterface({ input: child.stdout! });
  const next = () => new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('exit', (status) => reject(new Error(`the flood's clients exited (${status})`)));
    messages.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
  });
  return {
    ready: next(),
    go: () => child.stdin!.write('go\n'),
    /** Resolves once the clients have stopped sending (their requests under way may still be answered). */
    pause: async () => {
      const answer = next();
      child.stdin!.write('pause\n');
      await answer;
    },
    stop: async () => {
      const answer = next();
      child.stdin!.write('stop\n');
      return (await answer).answered as Record<string, number>;
    },
  };
}
