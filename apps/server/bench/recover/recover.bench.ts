/**
 * Recovery benchmark: the production topology (three built nodes behind
 * HAProxy, deploy/haproxy.cfg) on a PostgreSQL and a Redis of its own,
 * `--games` live games played through the proxy, and in turn:
 *
 *   kill     kill -9 of one node (then it is started again)
 *   drain    SIGTERM of one node, which drains (then it is started again)
 *   postgres PostgreSQL stopped for `--outage` seconds, then started
 *
 *   pnpm bench:recover
 *   pnpm bench:recover --games 100 --think 1000 --faults kill,drain,postgres --check-inter 1000 --observe 20
 *                      --outage 10 --max-connections 100 --drain-notice 3000
 *
 * For each fault it prints the moves acknowledged per second (1-s buckets)
 * from 5 s before to `--observe` s after, the rate before (the 10 s before the fault), when the rate
 * fell below 90 % of it and when it was back (the start of two whole seconds in a row at 90 %, after
 * the lowest second), counted from the
 * kill, the signal, or PostgreSQL's return; and the moves: sent, acknowledged, committed (in the
 * database), committed whose first answer never came, committed never acknowledged, and
 * acknowledged but not committed (lost); with the refusals to resend (BUSY, UNAVAILABLE) and
 * the reconnections. Players reconnect and resend as the web client does (recovering-player.ts).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { RoomResponse, SessionResponse } from '@oanquan/protocol';
import { freePort, privatePostgres, privateRedis } from '@oanquan/testkit';
import { launchCluster, type LaunchOptions, type RunningCluster } from '../../src/cluster/launch-cluster.js';
import { untilAllAnswer } from '../../src/testing/cluster.js';
import { inBatches } from '../load/stats.js';
import { RecoveringPlayer, RecoverTally } from './recovering-player.js';
import { buckets, rateBetween, recovery } from './timeline.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '100' },
    think: { type: 'string', default: '1000' },
    faults: { type: 'string', default: 'kill,drain,postgres' },
    'check-inter': { type: 'string', default: '1000' },
    outage: { type: 'string', default: '10' },
    observe: { type: 'string', default: '20' },
    'drain-notice': { type: 'string' },
    'max-connections': { type: 'string', default: '100' },
  },
});
const games = Number(args.games);
const thinkMs = Number(args.think);
const checkIntervalMs = Number(args['check-inter']);
const outageMs = Number(args.outage) * 1_000;
const observeMs = Number(args.observe) * 1_000;
const faults = args.faults.split(',') as Array<'kill' | 'drain' | 'postgres'>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** Every player comes from one address: the caps per person and address are opened up, as in bench:load. */
const nodeEnv = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  TRUST_PROXY: 'loopback',
  MAX_SOCKETS_PER_ADDRESS: '100000',
  MAX_SOCKETS_PER_PLAYER: '100000',
  RATE_LIMIT_GUESTS_PER_HOUR: '1000000',
  RATE_LIMIT_NEW_PLAYERS_PER_ADDRESS_PER_HOUR: '1000000',
  RATE_LIMIT_ROOMS_PER_MINUTE: '1000000',
  RATE_LIMIT_ROOMS_PER_ADDRESS_PER_MINUTE: '1000000',
  RATE_LIMIT_SEATS_PER_ADDRESS_PER_MINUTE: '1000000',
  RATE_LIMIT_SEATS_PER_MINUTE: '1000000',
  RATE_LIMIT_READS_PER_MINUTE: '1000000',
  ...(args['drain-notice'] === undefined ? {} : { DRAIN_NOTICE_MS: args['drain-notice'] }),
};

async function post<T>(url: string, route: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(url + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function startGames(url: string, tally: RecoverTally): Promise<RecoveringPlayer[]> {
  const guests = await inBatches(Array.from({ length: games * 2 }), 16, () => post<SessionResponse>(url, '/api/session'));
  const pairs = await inBatches(Array.from({ length: games }), 16, async (_, game) => {
    const [a, b] = [guests[2 * game]!, guests[2 * game + 1]!];
    const room = await post<RoomResponse>(url, '/api/rooms', a.token, { timeControl: { initialSeconds: 1800, incrementSeconds: 0 } });
    const players = [await RecoveringPlayer.connect(url, a.token, `g${game}a`, tally, thinkMs), await RecoveringPlayer.connect(url, b.token, `g${game}b`, tally, thinkMs)];
    for (const player of players) await player.join(room.code);
    return players;
  });
  for (const player of pairs.flat()) player.chooseHand();
  return pairs.flat();
}

interface FaultRun {
  name: string;
  /** When the fault began, and the moment recovery is counted from (the kill, the signal, PostgreSQL's return). */
  startedAt: number;
  since: number;
  /** Further moments worth a mark on the timeline. */
  marks: Array<{ label: string; at: number }>;
}

async function runFault(kind: 'kill' | 'drain' | 'postgres', cluster: RunningCluster, database: Awaited<ReturnType<typeof privatePostgres>>): Promise<FaultRun> {
  if (kind === 'kill') {
    const node = cluster.nodes[0]!;
    const at = Date.now();
    node.child.kill('SIGKILL');
    await node.exited;
    return { name: `kill -9 of the node on port ${node.port}`, startedAt: at, since: at, marks: [] };
  }
  if (kind === 'drain') {
    const node = cluster.nodes[1]!;
    const at = Date.now();
    node.child.kill('SIGTERM');
    const exitedAt = await node.exited.then(() => Date.now());
    return { name: `SIGTERM (drain) of the node on port ${node.port}`, startedAt: at, since: at, marks: [{ label: 'exited', at: exitedAt }] };
  }
  const at = Date.now();
  await database.stop();
  const stoppedAt = Date.now();
  await sleep(outageMs - (stoppedAt - at));
  await database.start();
  const back = Date.now();
  return { name: `PostgreSQL stopped for ${outageMs / 1000} s`, startedAt: at, since: back, marks: [{ label: 'stopped', at: stoppedAt }, { label: 'back', at: back }] };
}

/** The moves in the database, with when each arrived at the node that committed it (its created_at). */
async function committedOf(databaseUrl: string, moveIds: string[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ move_id: string; created_at: Date }>('SELECT move_id, created_at FROM move WHERE move_id = ANY($1::text[])', [moveIds]);
    return new Map(rows.rows.map((row) => [row.move_id, row.created_at.getTime()]));
  } finally {
    await client.end();
  }
}

function report(run: FaultRun, tally: RecoverTally, committed: Map<string, number>, endAt: number): void {
  const before = rateBetween(tally.ackTimes, run.startedAt - 10_000, run.startedAt);
  // Whole seconds from `since`, so the buckets line up with the moment recovery is counted from.
  const from = run.since - Math.ceil((run.since - run.startedAt) / 1000) * 1000 - 5_000;
  const timeline = buckets(tally.ackTimes, from, run.since + observeMs);
  const back = recovery(tally.ackTimes, before, run.since, run.since + observeMs);
  const inWindow = (at: number) => at >= run.startedAt && at < endAt;
  const sent = [...tally.sent].filter(([, at]) => inWindow(at)).map(([id]) => id);
  const unanswered = [...tally.unanswered].filter(([, at]) => inWindow(at)).map(([id]) => id);
  const refusals = tally.refusals.filter((r) => inWindow(r.at));
  const byCode = new Map<string, number>();
  for (const r of refusals) byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
  const line = (xs: number[]) => xs.map((n) => String(n).padStart(4)).join('');
  console.log(`\n== ${run.name} (load average ${load()})`);
  console.log(`moves/s per second, from -5 s (0 = ${run.since === run.startedAt ? 'the fault' : 'PostgreSQL back'}; marks: ${run.marks.map((m) => `${m.label} ${((m.at - run.since) / 1000).toFixed(1)} s`).join(', ') || 'none'}):`);
  const offset = Math.round((from - run.since) / 1000);
  console.log(`  s  ${line(timeline.map((_, i) => i + offset))}`);
  console.log(`  /s ${line(timeline)}`);
  console.log(
    `rate before ${before.toFixed(1)}/s; below 90 % at ${back.dipAtMs === null ? 'never' : `${(back.dipAtMs / 1000).toFixed(1)} s`} (lowest ${back.lowest}/s); ` +
      `back to ≥ 90 % at ${back.backAtMs === null ? `not within ${observeMs / 1000} s` : `${(back.backAtMs / 1000).toFixed(1)} s`}`,
  );
  const committedSent = sent.filter((id) => committed.has(id));
  const unansweredCommitted = unanswered.filter((id) => committed.has(id));
  console.log(
    `moves sent ${sent.length}, acknowledged ${sent.filter((id) => tally.acked.has(id)).length}, committed ${committedSent.length}; ` +
      `first answer lost ${unanswered.length} (with the connection ${unanswered.filter((id) => tally.cutOff.has(id)).length}, past 5 s ${unanswered.filter((id) => !tally.cutOff.has(id)).length}; ` +
      `committed ${unansweredCommitted.length}, of which acknowledged on resend ${unansweredCommitted.filter((id) => tally.acked.has(id)).length}, ` +
      // Arrived before its answer was missed: committed by the node that lost the answer, not on the resend.
      `committed before the answer was lost ${unanswered.filter((id) => (committed.get(id) ?? Infinity) < tally.unanswered.get(id)!).length}); ` +
      `committed never acknowledged ${committedSent.filter((id) => !tally.acked.has(id)).length}; acknowledged not committed (lost) ${sent.filter((id) => tally.acked.has(id) && !committed.has(id)).length}`,
  );
  const after = refusals.filter((r) => r.at >= run.since);
  console.log(
    `refusals after 0: ${after.length}, the last at ${after.length ? ((Math.max(...after.map((r) => r.at)) - run.since) / 1000).toFixed(1) : '–'} s; ` +
      `refusals resent ${refusals.length} (${[...byCode].map(([code, n]) => `${code} ${n}`).join(', ') || 'none'}); disconnects ${tally.disconnects.filter(inWindow).length}, reconnects ${tally.reconnects.filter(inWindow).length}`,
  );
}

// PostgreSQL's default connection limit, as docker-compose runs it: the three nodes' pools (22 connections each) fit.
/** The nodes take the three ports after the proxy's, which another program may hold: then the launch is tried on other ports. */
async function launchWithRetries(options: LaunchOptions): Promise<RunningCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchCluster({ ...options, port: await freePort() });
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

const [database, redis] = await Promise.all([privatePostgres({ maxConnections: Number(args['max-connections']) }), privateRedis()]);
const nodeArgs = JSON.parse(readFileSync(path.join(serverDir, 'node-args.json'), 'utf8')) as string[];
let cluster: RunningCluster | undefined;
let players: RecoveringPlayer[] = [];
const tally = new RecoverTally();
// The nodes' errors and warnings by message, to tell what a fault made them say.
const said = new Map<string, number>();
let partial = '';
const listen = (chunk: Buffer) => {
  const lines = (partial + chunk.toString()).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) {
    const found = /"level":(\d+).*?"msg":"([^"]*)"/.exec(line);
    if (!found || Number(found[1]) < 40) continue;
    // An error says why in its message (its first line).
    const why = found[1] === '40' ? '' : ` (${/"message":"((?:[^"\\]|\\.){0,160})/.exec(line)?.[1]?.split('\\n')[0] ?? '?'})`;
    const key = `${found[1] === '40' ? 'warn' : 'error'}: ${found[2]}${why}`;
    said.set(key, (said.get(key) ?? 0) + 1);
  }
};
try {
  cluster = await launchWithRetries({
    port: 0,
    nodeArgs: [...nodeArgs, 'dist/main.js'],
    serverDir,
    env: { ...nodeEnv, DATABASE_URL: database.url, REDIS_URL: redis.url },
    startTimeoutMs: 120_000,
    checkIntervalMs,
    echo: listen,
  });
  const url = cluster.proxy.url;
  await untilAllAnswer(url, ['node1', 'node2', 'node3']);
  console.log(`recover bench: ${games} games through HAProxy (deploy/haproxy.cfg, checks every ${checkIntervalMs} ms), think ${thinkMs} ms; nodes ready in ${cluster.nodes.map((n) => n.readyMs).join(', ')} ms; load average ${load()}`);
  players = await startGames(url, tally);
  // Every game a few moves in before the first fault.
  await sleep(15_000);
  const runs: Array<{ run: FaultRun; endAt: number }> = [];
  for (const kind of faults) {
    const run = await runFault(kind, cluster, database);
    await sleep(Math.max(0, run.since + observeMs - Date.now()));
    const endAt = Date.now();
    runs.push({ run, endAt });
    if (kind !== 'postgres') {
      await cluster.restart(kind === 'kill' ? 0 : 1);
      await untilAllAnswer(url, ['node1', 'node2', 'node3']);
    }
    // Settle before the next fault: its 10 s before are the rate it is compared with.
    await sleep(12_000);
  }
  tally.stopping = true;
  await sleep(6_000);
  const committed = await committedOf(database.url, [...tally.sent.keys()]);
  for (const { run, endAt } of runs) report(run, tally, committed, endAt);
  const lost = [...tally.acked].filter((id) => !committed.has(id)).length;
  console.log(`\nwhole run: ${tally.sent.size} moves sent, ${tally.acked.size} acknowledged, ${lost} acknowledged and not in the database; errors ${JSON.stringify(Object.fromEntries(tally.errors))}`);
  console.log(`the nodes said: ${[...said].map(([msg, n]) => `${msg} ×${n}`).join('; ') || 'nothing above info'}`);
} finally {
  tally.stopping = true;
  for (const player of players) player.close();
  await cluster?.stop();
  await redis.stop();
  await database.destroy();
}
