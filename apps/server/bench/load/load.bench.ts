/**
 * Load benchmark: many live games at once against the real server
 * process(es), with the floor measured in the same run.
 *
 *   pnpm bench:load                     the default plan (a few minutes)
 *   pnpm bench:load --games 300 --processes 2 --think 1000 --duration 30 --db postgresql
 *   pnpm bench:load --games 300 --processes 1,2 --no-floor
 *                                       one process, then two sharing PostgreSQL and a Redis of the run's own
 *                                       (each game's players on different processes), in the same run; prints
 *                                       the two-process figures over the one-process ones
 *   pnpm bench:load --idle 1000,5000,10000   server RSS and heap as idle sockets in rooms grow to each count
 *   pnpm bench:load --games 100 --db pglite --no-floor --cpu-prof .data/profiles
 *                                       also writes each server process's CPU profile (.cpuprofile) there, and the
 *                                       floor relay's, with each run's measured window: `pnpm bench:profile .data/profiles`
 *                                       prints µs per move by package, file or function, side by side (profile-layers.ts)
 *   pnpm bench:load --games 300,600 --pin   the load generator pinned to core 1, the floor relay and the
 *                                       server to core 0 beside a PostgreSQL of the run's own (taskset; see pinning.ts)
 *   pnpm bench:load --games 300 --pin --warmup 20 --duration 40
 *                                       steady play: the measured window starts 20 s into play instead of 3. At 3 s
 *                                       the optimizing compiler is still at work (300 games: over the window, the
 *                                       server's CPU per move a quarter above its figure from 8 s on, the floor
 *                                       relay's a tenth); by 20 s the heap's idle mode (heap-sizing.ts) is back,
 *                                       full collections and all
 *   pnpm bench:load --games 300,600 --pin --repeat 3
 *                                       each number of games measured three times, floor and server back to back
 *                                       each time; prints the median of the three pairs' ratios (see floor-ratios.ts)
 *   pnpm bench:load --games 300 --perf .data/perf
 *                                       also records the measured window of each run with Linux perf (on-CPU
 *                                       samples only), one perf.data per run there; JavaScript frames are named
 *                                       by the processes' jit-<pid>.dump (node --perf-prof, written in apps/server):
 *                                       `perf inject --jit -i <run>.perf.data -o <run>.jit.data` then `perf report -i`
 *
 * Players are real socket.io-client sockets that choose random legal moves
 * with @oanquan/rules after a think time (uniform between 0.5× and 1.5× of
 * --think). For each run it prints moves/s offered and achieved, the move
 * acknowledgement's percentiles, errors by code, server CPU and peak RSS per
 * process, CPU time per acknowledged move (the server's, and PostgreSQL's), the bytes of the frame a move
 * reaches a player in (average and largest), and the same figures for the floor: a bare Socket.IO relay that
 * commits each move as one prepared statement through node-postgres (see
 * floor-relay.ts), plus a single statement through plain pg and a bare
 * Socket.IO echo, one at a time. After each run it checks that every
 * acknowledged move is in the database and that no client saw an event twice
 * or missed one. Like the web client, players apply events in version order:
 * one that comes before the event it follows (players on two processes) is
 * held until that one arrives, and counted as out of order; missed are the
 * versions still not seen five seconds after the last move was answered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, startServerProcess, type ServerProcess } from '@oanquan/testkit';
import { scratchTarget } from '../../src/testing/databases.js';
import { startRedis } from '../../src/testing/cluster.js';
import { echoLatencies, startFloorGames } from './floor-players.js';
import { commitMoveSql } from './floor-sql.js';
import { closeAll, LoadTally, startGames } from './game-players.js';
import { idleSocketsRun } from './idle-sockets.js';
import type { ProfileWindow } from './profile-layers.js';
import { describePinning, pin, pinnedPostgres, pinningFor } from './pinning.js';
import { ProcessGroupWatch, processesNamed, ProcessWatch } from './process-stats.js';
import { floorRatioMedians, type FloorRatio } from './floor-ratios.js';
import { processRatios } from './process-ratios.js';
import { formatFigures, type Figures } from './run-figures.js';
import { loopDelays } from './server-counters.js';
import { formatPercentiles, ms, percentiles, times, type Percentiles } from './stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    games: { type: 'string' },
    processes: { type: 'string', default: '1' },
    think: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    db: { type: 'string', default: 'postgresql' },
    floor: { type: 'boolean', default: true },
    'no-floor': { type: 'boolean', default: false },
    idle: { type: 'string' },
    'cpu-prof': { type: 'string' },
    perf: { type: 'string' },
    pin: { type: 'boolean', default: false },
    repeat: { type: 'string', default: '1' },
  },
});

/**
 * The server's limits are per person; here every player comes from one
 * address (thousands of guests, each making a room), so they are opened up.
 */
const loadEnv = {
  LOG_LEVEL: 'warn',
  MAX_SOCKETS_PER_ADDRESS: '100000',
  MAX_SOCKETS_PER_PLAYER: '100000',
  RATE_LIMIT_GUESTS_PER_HOUR: '1000000',
  RATE_LIMIT_ROOMS_PER_MINUTE: '1000000',
  RATE_LIMIT_READS_PER_MINUTE: '1000000',
};

interface Run {
  games: number;
  processes: number;
  db: 'postgresql' | 'pglite';
  /** Which of the --repeat measurements of these games this is (from 0). */
  repeat: number;
}

const thinkMs = Number(args.think);
const pinning = pinningFor(args.pin);
if (pinning) pin(process.pid, pinning.generatorCore);
/** A measured process goes to its own core (it inherited the generator's when it was started). */
const pinMeasured = (pid: number) => pinning && pin(pid, pinning.serverCore);
/** Pinned, PostgreSQL is the run's own, beside the measured processes; unpinned, the machine's, every process of which counts. */
const ownPostgres = pinning && args.db !== 'pglite' ? await pinnedPostgres(pinning.serverCore) : null;
const databasePids = () => (ownPostgres ? ownPostgres.pids() : processesNamed('postgres'));
const line = (label: string, f: Figures) => formatFigures(label, f, ownPostgres ? "the run's own server" : "the machine's server, all of its processes");
const durationS = Number(args.duration);
/** Seconds of play before the measured window: every game's opener decided, then this. */
const warmupS = Number(args.warmup);
const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/**
 * On-CPU samples of the measured window (a CPU profile from --cpu-prof is
 * sampled on the wall clock: on a busy machine it blames whatever the process
 * was descheduled in, system calls first).
 */
function perfRecord(pids: number[], label: string): Promise<void> {
  if (!args.perf) return Promise.resolve();
  mkdirSync(args.perf, { recursive: true });
  const file = path.resolve(args.perf, `${label}.perf.data`);
  const perf = spawn('perf', ['record', '-q', '-k', 'mono', '-e', 'cpu-clock', '-F', '999', '-g', '-p', pids.join(','), '-o', file, '--', 'sleep', String(durationS)], { stdio: 'inherit' });
  return new Promise((resolve) => perf.once('exit', () => resolve()));
}

async function measure(tally: LoadTally, pids: number[], games: number, label: string, metricsUrls: string[] = [], database = true): Promise<Omit<Figures, 'lost'>> {
  // Steady play is measured, not the crowd arriving: every game's opener decided (or a minute
  // gone), then the first moves under way.
  for (let waited = 0; tally.started < 2 * games && waited < 60_000; waited += 100) await sleep(100);
  await sleep(warmupS * 1000);
  const watch = new ProcessWatch(pids);
  const databaseWatch = database ? new ProcessGroupWatch(databasePids) : null;
  const recording = perfRecord(pids, label);
  const loops = await loopDelays(metricsUrls);
  tally.measuring = true;
  const started = performance.now();
  const fromUs = monotonicUs();
  await sleep(durationS * 1000);
  tally.measuring = false;
  const seconds = (performance.now() - started) / 1000;
  writeProfileWindows({ label, pids, fromUs, toUs: monotonicUs(), moves: tally.achieved });
  const processes = watch.stop();
  const databaseSeconds = databaseWatch?.stop();
  const load = loadavg();
  await recording;
  const { loops: loopFigures, statements } = await loops();
  tally.stopping = true;
  for (let waited = 0; tally.inFlight > 0 && waited < 15_000; waited += 100) await sleep(100);
  return {
    offered: (games * 1000) / thinkMs,
    sent: tally.sent / seconds,
    achieved: tally.achieved / seconds,
    ack: percentiles(tally.latencies),
    relayed: percentiles(tally.relayed),
    errors: tally.errors.toString(),
    errorCount: tally.errors.total,
    resent: tally.resent.toString(),
    duplicates: tally.duplicates,
    gaps: tally.gaps,
    outOfOrder: tally.outOfOrder,
    processes,
    cpuPerMoveMs: (processes.reduce((sum, p) => sum + p.cpuPercent, 0) * 10) / (tally.achieved / seconds),
    systemPerMoveMs: (processes.reduce((sum, p) => sum + p.systemPercent, 0) * 10) / (tally.achieved / seconds),
    databaseCpuPerMoveMs: databaseSeconds === undefined ? null : (databaseSeconds * 1000) / tally.achieved,
    syscallsPerMove: processes.reduce((sum, p) => sum + p.syscalls, 0) / tally.achieved,
    movedFrame: { average: tally.movedFrames.bytes / tally.movedFrames.count, largest: tally.movedFrames.largest, count: tally.movedFrames.count },
    loops: loopFigures,
    statementsPerMove: statements.map((counts) => new Map([...counts].filter(([, n]) => n > 0).map(([name, n]) => [name, n / tally.achieved]))),
    load,
  };
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(line)) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

async function sequentialPg(url: string, count: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('INSERT INTO floor_match (id) VALUES (-2) ON CONFLICT DO NOTHING');
  const latencies: number[] = [];
  for (let version = 0; version < count; version++) {
    const t0 = performance.now();
    await client.query({ name: 'commit-move', text: commitMoveSql, values: [-2, version, `s${version}`, 1, 1, '{}'] });
    latencies.push(performance.now() - t0);
  }
  await client.end();
  return latencies;
}

/** The clock CPU profiles are stamped with (V8's ticks: CLOCK_MONOTONIC, as `hrtime`), in microseconds. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** With --cpu-prof, the measured window beside each process's profile, which `pnpm bench:profile` reads. */
function writeProfileWindows(run: Omit<ProfileWindow, 'pid'> & { pids: number[] }): void {
  if (!args['cpu-prof']) return;
  const { pids, ...window } = run;
  mkdirSync(args['cpu-prof'], { recursive: true });
  for (const pid of pids) writeFileSync(path.resolve(args['cpu-prof'], `${window.label}.${pid}.window.json`), JSON.stringify({ ...window, pid } satisfies ProfileWindow));
}

/** Node writes the profile when the process exits, which SIGTERM's drain (server) or handler (relay) ends with. */
function cpuProfArgs(): string[] {
  return [...(args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : []), ...(args.perf ? ['--perf-prof'] : [])];
}

async function floorRun(run: Run, databaseUrl: string): Promise<{ figures: Figures; pg: Percentiles; echo: Percentiles }> {
  const port = await freePort();
  const relay = spawn(process.execPath, [...cpuProfArgs(), '--import', 'tsx', path.join(here, 'floor-relay.ts'), databaseUrl, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  pinMeasured(relay.pid!);
  try {
    await waitForLine(relay, 'ready');
    const url = `http://127.0.0.1:${port}`;
    const pgLatencies = await sequentialPg(databaseUrl, 500);
    const echo = await echoLatencies(url, 500);
    const tally = new LoadTally();
    const players = await startFloorGames(url, run.games, thinkMs, tally);
    const figures = await measure(tally, [relay.pid!], run.games, `floor-${run.games}`);
    closeAll(players);
    const stored = await storedIds(databaseUrl, 'SELECT move_id FROM floor_move');
    return { figures: { ...figures, lost: missing(tally, stored) }, pg: percentiles(pgLatencies), echo: percentiles(echo) };
  } finally {
    relay.kill('SIGTERM');
  }
}

async function storedIds(databaseUrl: string, sql: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ move_id: string }>(sql);
  await client.end();
  return new Set(rows.map((row) => row.move_id));
}

function missing(tally: LoadTally, stored: Set<string>): number {
  let lost = 0;
  for (const id of tally.ackedMoveIds) if (!stored.has(id)) lost++;
  return lost;
}

async function serverRun(run: Run, databaseUrl: string | null): Promise<Figures & { entry: ServerProcess['entry'] }> {
  const dataDir = run.db === 'pglite' ? mkdtempSync(path.join(tmpdir(), 'oanquan-load-')) : null;
  // A Redis of the run's own: the shared one carries whatever other servers on this machine broadcast.
  const redis = run.processes > 1 ? await startRedis() : null;
  const env = {
    ...loadEnv,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { PGLITE_DATA_DIR: dataDir! }),
    ...(redis ? { REDIS_URL: redis.url } : {}),
  };
  const servers: ServerProcess[] = [];
  try {
    const metricsUrls: string[] = [];
    for (let i = 0; i < run.processes; i++) {
      const metricsPort = await freePort();
      metricsUrls.push(`http://127.0.0.1:${metricsPort}/metrics`);
      const server = await startServerProcess({ ...env, METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }, { nodeArgs: cpuProfArgs() });
      pinMeasured(server.child.pid!);
      servers.push(server);
    }
    const tally = new LoadTally();
    const players = await startGames(run.games, { thinkMs, urls: servers.map((s) => s.url), tally });
    const figures = await measure(tally, servers.map((s) => s.child.pid!), run.games, `server-${run.games}x${run.processes}`, metricsUrls, run.db === 'postgresql');
    // An event behind a hole may still be on its way from the other process (through Redis): a hole counts as missed once five more seconds have not filled it.
    const holes = () => players.reduce((sum, player) => sum + player.missing(), 0);
    for (let waited = 0; holes() > 0 && waited < 5000; waited += 100) await sleep(100);
    figures.gaps = holes();
    closeAll(players);
    const lost = databaseUrl ? missing(tally, await storedIds(databaseUrl, 'SELECT move_id FROM move')) : null;
    // An INTERNAL answer is a bug: show the first error or warning the server logged.
    const logged = servers.flatMap((server) => server.output().split('\n')).filter((entry) => entry.includes('"level":50') || entry.includes('"level":40'));
    if (logged.length) console.log(`  server errors and warnings logged: ${logged.length}; the first: ${logged[0]!.slice(0, 1500)}`);
    return { ...figures, lost, entry: servers[0]!.entry };
  } finally {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await redis?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh database for a run: on the run's own PostgreSQL when pinned, else on the machine's. */
async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (ownPostgres) return ownPostgres.database();
  const scratch = await scratchTarget('postgresql');
  return { url: (scratch.target as { url: string }).url, drop: scratch.drop };
}

async function loadRuns(runs: Run[]): Promise<void> {
  const rows: string[] = [];
  const withFloor = args.floor && !args['no-floor'];
  const results: Array<{ run: Run; figures: Figures }> = [];
  const ratios: FloorRatio[] = [];
  for (const [index, run] of runs.entries()) {
    // The floor once per number of games (and repeat): the runs with more processes compare with the same one.
    const floorHere = withFloor && runs.findIndex((other) => other.games === run.games && other.repeat === run.repeat) === index;
    const scratch = run.db === 'postgresql' || floorHere ? await scratchDatabase() : null;
    const databaseUrl = scratch?.url ?? null;
    try {
      console.log(`\n${run.games} games · ${run.processes} process${run.processes > 1 ? 'es + Redis' : ''} · ${run.db} · think ${thinkMs} ms · ${durationS} s measured after ${warmupS} s of play · ${describePinning(pinning)}${Number(args.repeat) > 1 ? ` · measurement ${run.repeat + 1} of ${args.repeat}` : ''}`);
      const floor = floorHere && databaseUrl ? await floorRun(run, databaseUrl) : null;
      if (floor) {
        console.log(`  floor, one at a time: plain pg statement ${formatPercentiles(floor.pg)}; Socket.IO echo ${formatPercentiles(floor.echo)}`);
        console.log(line('floor relay (Socket.IO + one prepared statement per move)', floor.figures));
      }
      const server = await serverRun(run, run.db === 'postgresql' ? databaseUrl : null);
      // The sources run through tsx when the build is older than them (see server-entry.ts): not the server that ships.
      console.log(line(server.entry === 'build' ? 'server' : 'server, from its sources (the build is older: pnpm build)', server));
      results.push({ run, figures: server });
      const ratio = floor ? `×${times(server.ack.p50 / floor.figures.ack.p50)} / ×${times(server.ack.p99 / floor.figures.ack.p99)}` : '–';
      if (floor) {
        const f = floor.figures;
        const databaseRatio = server.databaseCpuPerMoveMs !== null && f.databaseCpuPerMoveMs ? server.databaseCpuPerMoveMs / f.databaseCpuPerMoveMs : null;
        ratios.push({ games: run.games, processes: run.processes, p50: server.ack.p50 / f.ack.p50, p99: server.ack.p99 / f.ack.p99, cpu: server.cpuPerMoveMs / f.cpuPerMoveMs, database: databaseRatio });
        const database = databaseRatio === null ? '' : `; PostgreSQL CPU per move ×${databaseRatio.toFixed(2)}`;
        console.log(`  server ÷ floor relay: p50 ${ratio.split(' / ')[0]}, p99 ${ratio.split(' / ')[1]}; CPU per move ×${(server.cpuPerMoveMs / f.cpuPerMoveMs).toFixed(2)}${database}`);
      }
      rows.push(
        `| ${run.games} | ${run.processes} | ${run.db} | ${server.offered.toFixed(0)} → ${server.achieved.toFixed(0)} | ${ms(server.ack.p50)} | ${ms(server.ack.p99)} | ${server.errorCount} | ${server.processes.map((p) => p.cpuPercent.toFixed(0)).join(' + ')} % | ` +
          `${server.cpuPerMoveMs.toFixed(3)} / ${floor ? floor.figures.cpuPerMoveMs.toFixed(3) : '–'} | ${server.movedFrame.average.toFixed(0)} B | ` +
          `${floor ? `${ms(floor.figures.ack.p50)} / ${ms(floor.figures.ack.p99)}` : '–'} | ${ratio} |`,
      );
    } finally {
      await scratch?.drop();
    }
  }
  console.log('\n| games | processes | database | moves/s offered → achieved | ack p50 ms | ack p99 ms | errors | server CPU | CPU ms per move, server / floor | move frame, average | floor p50 / p99 ms | ratio p50 / p99 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  processRatios(results);
  floorRatioMedians(ratios);
}

if (args.idle) {
  await idleSocketsRun(args.idle.split(',').map(Number), loadEnv);
} else {
  const db = args.db === 'pglite' ? 'pglite' : 'postgresql';
  const plan: Array<Omit<Run, 'repeat'>> = args.games
    ? args.games.split(',').flatMap((games) => args.processes.split(',').map((processes) => ({ games: Number(games), processes: Number(processes), db })))
    : [
        { games: 100, processes: 1, db: 'postgresql' },
        { games: 300, processes: 1, db: 'postgresql' },
        { games: 1000, processes: 1, db: 'postgresql' },
        { games: 1000, processes: 2, db: 'postgresql' },
      ];
  // Each number of games measured --repeat times in a row, its process counts each time.
  const repeats = Array.from({ length: Number(args.repeat) }, (_, repeat) => repeat);
  const runs: Run[] = [...new Set(plan.map((run) => run.games))].flatMap((games) =>
    repeats.flatMap((repeat) => plan.filter((run) => run.games === games).map((run) => ({ ...run, repeat }))),
  );
  try {
    await loadRuns(runs);
  } finally {
    await ownPostgres?.destroy();
  }
}
process.exit(0);
