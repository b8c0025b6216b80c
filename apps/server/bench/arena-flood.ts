/**
 * The arena floods beside people's games, on a server process of its own
 * (PostgreSQL, PGlite when no server answers): two people playing each
 * other move after move (BENCH_DB as for the arena bench), for BENCH_PHASE_SECONDS without a flood and then
 * with one, all of it from one address (the server trusts the bench's
 * X-Forwarded-For): BENCH_FLOOD_READERS guests each reading pages of a
 * private arena's standings BENCH_FLOOD_READS_PER_SECOND times a second
 * (answered or not), and BENCH_FLOOD_JOINERS
 * guests joining it, then joining and pausing BENCH_FLOOD_ENTRIES_PER_SECOND
 * times a second. Spectators watching the arena count what is pushed to
 * them. Prints people's ack p50/p99 in both phases and their ratio, what
 * the flood was answered (by status), and the bytes per push.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ArenaView } from '@oanquan/protocol';
import { startServerProcess } from '@oanquan/testkit';
import { scratchTarget } from '../src/testing/databases.js';
import { api, newAccount, newGuest, TestClient } from '../src/testing/live.js';
import { peoplePlaying, quantile } from './people-playing.js';

const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 20);
const READERS = Number(process.env.BENCH_FLOOD_READERS ?? 20);
const READS_PER_SECOND = Number(process.env.BENCH_FLOOD_READS_PER_SECOND ?? 30);
const JOINERS = Number(process.env.BENCH_FLOOD_JOINERS ?? 300);
const ENTRIES_PER_SECOND = Number(process.env.BENCH_FLOOD_ENTRIES_PER_SECOND ?? 30);
const PAIRS = Number(process.env.BENCH_PEOPLE_PAIRS ?? 2);
const WATCHERS = 3;
const FLOOD_ADDRESS = '198.51.100.23';

export async function floodsBesidePeople(): Promise<void> {
  const engine = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgresql';
  const scratch = await scratchTarget(engine);
  const server = await startServerProcess({
    ...(scratch.target.kind === 'postgresql' ? { DATABASE_URL: scratch.target.url } : {}),
    LOG_LEVEL: 'warn',
    ARENA_SCHEDULE: 'off',
    TRUST_PROXY: 'loopback',
    // The flood's guests and sockets are not what is measured here.
    RATE_LIMIT_GUESTS_PER_HOUR: '100000',
    MAX_SOCKETS_PER_ADDRESS: '100000',
  });
  const url = server.url;
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
    const clients = floodClients(url, code);
    await clients.ready;
    console.error('flood bench: people play without the flood');

    const people = async () => {
      const endsAt = performance.now() + PHASE_SECONDS * 1000;
      const runs = await Promise.all(Array.from({ length: PAIRS }, () => peoplePlaying(url, () => performance.now() > endsAt, 0)));
      return runs.flat().sort((x, y) => x - y);
    };
    const quiet = await people();
    const pushedBefore = { ...pushes };
    console.error('flood bench: people play beside the flood');
    clients.go();
    const flooded = await people();
    const answered = await clients.stop();
    const pushed = { count: pushes.count - pushedBefore.count, bytes: pushes.bytes - pushedBefore.bytes };

    const p = (values: number[], q: number) => quantile(values, q).toFixed(1);
    console.log(`\nfloods beside people's games (${engine}, ${PAIRS} pairs, ${PHASE_SECONDS} s a phase; ${READERS} readers, ${JOINERS} joiners then ${ENTRIES_PER_SECOND} joins and pauses a second, one address):`);
    console.log(`  people's move acks without the flood: p50 ${p(quiet, 50)} ms, p99 ${p(quiet, 99)} ms (${quiet.length})`);
    console.log(`  people's move acks with the flood:    p50 ${p(flooded, 50)} ms, p99 ${p(flooded, 99)} ms (${flooded.length})`);
    console.log(`  p99 with / without: ${(quantile(flooded, 99) / quantile(quiet, 99)).toFixed(2)}`);
    console.log(`  the flood was answered: ${Object.entries(answered).sort().map(([k, n]) => `${k}: ${n}`).join(', ')}`);
    const each = pushed.count / WATCHERS;
    console.log(`  pushed to each watcher: ${each.toFixed(0)} pushes, ${(pushed.bytes / WATCHERS / 1024).toFixed(1)} KiB, ${(pushed.count ? pushed.bytes / pushed.count / 1024 : 0).toFixed(1)} KiB per push`);
    for (const watcher of watchers) watcher.close();
  } finally {
    stopping = true;
    server.child.kill('SIGTERM');
    await server.exited;
    await scratch.drop();
  }
}

/**
 * The flood's clients in a process of their own (arena-flood-clients.ts), below people's on the scheduler as an
 * attacker's machines would be, so that their thousands of requests do not delay the acks measured here.
 */
function floodClients(url: string, code: string) {
  const command = [process.execPath, '--import', 'tsx', 'bench/arena-flood-clients.ts'];
  const child = spawn('nice', ['-n', '10', ...command], {
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
  const messages = createInterface({ input: child.stdout! });
  const next = () => new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('exit', (status) => reject(new Error(`the flood's clients exited (${status})`)));
    messages.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
  });
  return {
    ready: next(),
    go: () => child.stdin!.write('go\n'),
    stop: async () => {
      const answer = next();
      child.stdin!.write('stop\n');
      return (await answer).answered as Record<string, number>;
    },
  };
}
