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
import { ARENA_PAGE_SIZE, type ArenaView } from '@oanquan/protocol';
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
    const guests = await Promise.all(Array.from({ length: JOINERS }, () => newGuest(url)));
    console.error(`flood bench: ${guests.length} guests made; people play without the flood`);

    const people = async () => {
      const endsAt = performance.now() + PHASE_SECONDS * 1000;
      const runs = await Promise.all(Array.from({ length: PAIRS }, () => peoplePlaying(url, () => performance.now() > endsAt, 0)));
      return runs.flat().sort((x, y) => x - y);
    };
    const quiet = await people();

    const answered = new Map<string, number>();
    const tally = (what: string, status: number) => answered.set(`${what} ${status}`, (answered.get(`${what} ${status}`) ?? 0) + 1);
    const send = async (what: string, path: string, token: string, method = 'GET') => {
      const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': FLOOD_ADDRESS } }).catch(() => null);
      tally(what, response?.status ?? 0);
      await response?.arrayBuffer();
    };
    let flooding = true;
    const pages = Math.ceil(JOINERS / ARENA_PAGE_SIZE);
    const readers = guests.slice(0, READERS).map(async (guest, i) => {
      for (let n = 0; flooding; n++) {
        void send('read', `/api/arenas/${code}?page=${1 + ((i + n) % pages)}`, guest.token);
        await new Promise((resolve) => setTimeout(resolve, 1000 / READS_PER_SECOND));
      }
    });
    const entries = (async () => {
      // The crowd joins over 14 s, then joins and pauses at the given rate.
      for (let i = 0; flooding && i < guests.length; i++) {
        void send('join', `/api/arenas/${code}/join`, guests[i]!.token, 'POST');
        await new Promise((resolve) => setTimeout(resolve, 14_000 / guests.length));
      }
      for (let n = 0; flooding; n++) {
        const guest = guests[n % guests.length]!;
        void send(n % 2 === 0 ? 'pause' : 'join', `/api/arenas/${code}/${n % 2 === 0 ? 'pause' : 'join'}`, guest.token, 'POST');
        await new Promise((resolve) => setTimeout(resolve, 1000 / ENTRIES_PER_SECOND));
      }
    })();
    const pushedBefore = { ...pushes };
    console.error('flood bench: people play beside the flood');
    const progress = setInterval(() => console.error(`flood bench: ${[...answered].map(([k, n]) => `${k}: ${n}`).join(', ')}`), 5000);
    const flooded = await people();
    flooding = false;
    clearInterval(progress);
    await Promise.all([...readers, entries]);
    const pushed = { count: pushes.count - pushedBefore.count, bytes: pushes.bytes - pushedBefore.bytes };

    const p = (values: number[], q: number) => quantile(values, q).toFixed(1);
    console.log(`\nfloods beside people's games (${engine}, ${PAIRS} pairs, ${PHASE_SECONDS} s a phase; ${READERS} readers, ${JOINERS} joiners then ${ENTRIES_PER_SECOND} joins and pauses a second, one address):`);
    console.log(`  people's move acks without the flood: p50 ${p(quiet, 50)} ms, p99 ${p(quiet, 99)} ms (${quiet.length})`);
    console.log(`  people's move acks with the flood:    p50 ${p(flooded, 50)} ms, p99 ${p(flooded, 99)} ms (${flooded.length})`);
    console.log(`  p99 with / without: ${(quantile(flooded, 99) / quantile(quiet, 99)).toFixed(2)}`);
    console.log(`  the flood was answered: ${[...answered].sort().map(([k, n]) => `${k}: ${n}`).join(', ')}`);
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
