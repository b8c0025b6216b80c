/**
 * Games against the computer under load, on PostgreSQL (PGlite when no
 * server answers): how long the computer's level-8 reply takes end to end
 * (from the person's acknowledged move to the computer's `moved` event), and
 * whether people playing each other notice 50 games against the computer
 * running at once. Prints move-ack percentiles of a game between two people
 * alone and beside the 50 games, the computer's reply times in both cases,
 * the level-8 search times the server measured where it asked for each move
 * (waiting for a worker included), and the load average.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PRESETS } from '@oanquan/rules';
import type { RoomResponse, Seat } from '@oanquan/protocol';
import { freePort, startServerProcess } from '@oanquan/testkit';
import { engines, scratchTarget } from '../src/testing/databases.js';
import { metricSample } from '../src/testing/metric-sample.js';
import { HumanSide } from '../src/testing/human-side.js';
import { api, newGuest, TestClient } from '../src/testing/live.js';
import { peoplePlaying as playing, percentiles } from './people-playing.js';

const BOT_GAMES = Number(process.env.BENCH_BOT_GAMES ?? 50);
const BOT_MOVES_EACH = Number(process.env.BENCH_BOT_MOVES ?? 10);
const LEVEL = 8;
/** How long the people playing the computer think before each move; 0 is the worst case, every game always busy. */
const HUMAN_THINK_MS = Number(process.env.BENCH_HUMAN_THINK_MS ?? 1000);
/** How long the computer waits before its move lands (the server's BOT_MOVE_DELAY_MS). */
const MOVE_DELAY_MS = process.env.BENCH_BOT_MOVE_DELAY_MS ?? '600';

// The server is a process of its own, as in production: the clients simulated here must not share its event loop.
const engine = engines.includes('postgresql') ? 'postgresql' : 'pglite';
const scratch = await scratchTarget(engine);
const database: Record<string, string> = scratch.target.kind === 'postgresql' ? { DATABASE_URL: scratch.target.url } : {};
const metricsPort = await freePort();
const server = await startServerProcess({
  ...database,
  BOT_MOVE_DELAY_MS: MOVE_DELAY_MS,
  BOT_SWEEP_MS: '60000',
  LOG_LEVEL: 'warn',
  MAX_SOCKETS_PER_ADDRESS: '1000',
  METRICS_PORT: String(metricsPort),
  METRICS_HOST: '127.0.0.1',
});
const url = server.url;

/** The server's own timing of its level-8 searches, from asking the pool to the answer: quantiles over the last 10 minutes. */
async function searchTimes(): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const at = (quantile: string) => ((metricSample(text, 'oanquan_engine_move_seconds', `{quantile="${quantile}",level="${LEVEL}"}`) ?? NaN) * 1000).toFixed(1);
  const count = metricSample(text, 'oanquan_engine_move_seconds_count', `{level="${LEVEL}"}`) ?? 0;
  return `p50 ${at('0.5')} ms, p90 ${at('0.9')} ms, p99 ${at('0.99')} ms, max ${at('1')} ms (${count} searches so far)`;
}

/**
 * How late each event loop ran over a phase: the server's (from its metrics,
 * which reset at every read) and this process's, whose simulated people time
 * the acks, so a late ack can be told apart from a late measurer.
 */
const benchLoop = monitorEventLoopDelay({ resolution: 10 });
benchLoop.enable();
async function loopDelays(): Promise<string> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const server = (name: string) => ((metricSample(text, `oanquan_nodejs_eventloop_lag_${name}_seconds`) ?? NaN) * 1000).toFixed(1);
  const bench = (ns: number) => (ns / 1e6).toFixed(1);
  const line = `event-loop delay: server p99 ${server('p99')} ms, max ${server('max')} ms; this bench's p99 ${bench(benchLoop.percentile(99))} ms, max ${bench(benchLoop.max)} ms`;
  benchLoop.reset();
  return line;
}

/** One game against the computer: the person answers at once; answers the computer's reply times. */
async function againstComputer(seed: number): Promise<number[]> {
  const guest = await newGuest(url);
  const { body: room } = await api<RoomResponse>(url, '/api/bot-games', { token: guest.token, body: { level: LEVEL } });
  const client = await TestClient.connect(url, guest.token);
  const joined = await client.request('room:join', { code: room.code });
  if (!joined.ok) throw new Error(joined.code);
  const seat = joined.seat as Seat;
  for (let round = 1; !client.events.some((e) => e.event.type === 'started'); round++) {
    // A person takes a moment over their hand too (meanwhile the server starts its engine threads).
    await new Promise((resolve) => setTimeout(resolve, HUMAN_THINK_MS));
    const ack = await client.request('opener:choose', { matchId: room.matchId, choice: 'rock' });
    if (!ack.ok && ack.code !== 'NOT_IN_OPENER') throw new Error(ack.code);
    await client.until(() => client.events.some((e) => (e.event.type === 'opener-round' && e.event.round === round) || e.event.type === 'started'), 'the round', 120_000);
  }
  const replies: number[] = [];
  let sent = 0;
  client.socket.on('match:event', () => {
    // Heard after the client has recorded the event (its own listener came first). The reply time counts from the
    // person's move being sent, less the delay the server adds on purpose.
    if (client.events.at(-1)?.event.type === 'moved' && human.lastMover() !== seat && sent > 0) replies.push(performance.now() - sent - Number(MOVE_DELAY_MS));
  });
  const human = new HumanSide(client, room.matchId, seat, { seed });
  const originalRequest = client.request.bind(client);
  client.request = ((event: string, payload: unknown) => {
    if (event === 'move') sent = performance.now();
    return originalRequest(event as 'move', payload);
  }) as typeof client.request;
  await human.playUntilEnd(PRESETS.classic, BOT_MOVES_EACH, 600_000, HUMAN_THINK_MS);
  client.close();
  return replies;
}

const peoplePlaying = (until: () => boolean, minGames: number) => playing(url, until, minGames);

try {
  await loopDelays();
  const alone = await peoplePlaying(() => true, 2);
  const aloneLoops = await loopDelays();
  const single = await againstComputer(1);
  console.log(`engine ${engine}, load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`people alone: move ack ${percentiles(alone)}`);
  console.log(`  ${aloneLoops}`);
  console.log(`one game against level ${LEVEL}: the computer's reply ${percentiles(single)}`);
  console.log(`  level-${LEVEL} search wall time on the server: ${await searchTimes()}`);

  const failures: string[] = [];
  let busy = true;
  const loadStarted = performance.now();
  // Staggered starts, as people arrive: fifty sign-ins in one instant would measure the sign-in, not the games.
  const computerGames = Promise.all(
    Array.from({ length: BOT_GAMES }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 100));
      return againstComputer(100 + i).catch((error: unknown) => {
        failures.push(error instanceof Error ? error.message : String(error));
        return [] as number[];
      });
    }),
  ).finally(() => (busy = false));
  const beside = await peoplePlaying(() => !busy, 2);
  const replies = (await computerGames).flat();
  const seconds = (performance.now() - loadStarted) / 1000;
  console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`people beside ${BOT_GAMES} games against level ${LEVEL}: move ack ${percentiles(beside)}`);
  console.log(`  ${await loopDelays()}`);
  console.log(`the computer's reply in those games: ${percentiles(replies)}; ${replies.length} replies in ${seconds.toFixed(0)} s`);
  console.log(`  level-${LEVEL} search wall time on the server, both phases: ${await searchTimes()}`);
  console.log(`people playing the computer think ${HUMAN_THINK_MS} ms a move; the computer's move lands ${MOVE_DELAY_MS} ms after its turn began at the earliest`);
  if (failures.length) {
    console.log(`${failures.length} of ${BOT_GAMES} games failed: ${[...new Set(failures)].join('; ')}`);
    console.log(server.output().split('\n').filter((line) => /"level":(40|50)/.test(line)).slice(0, 5).join('\n'));
  }
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  await scratch.drop();
}
process.exit(0);
