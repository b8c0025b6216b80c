/**
 * One address starting games against the computer and playing them at full
 * speed, beside people's games (PostgreSQL, PGlite when no server answers).
 * Many guests from one address each ask for several level-8 games at once
 * (the server trusts the bench's X-Forwarded-For, so the attacker and the
 * victim each have an address of their own);
 * the caps refuse some (counted by code), and every game let through is
 * played without a pause, a new one started whenever one ends. Beside it,
 * measured without the attack and then with it: two people playing each
 * other (their move acks), and a victim from another address playing the
 * computer at a person's pace (their move acks, and the computer's reply
 * from the victim's ack to the computer's move against its deadline, the
 * server's BOT_MOVE_DELAY_MS). Then the failures of the server's periodic
 * tasks logged in each phase.
 *
 * The server runs on one core and the bench's clients on the other
 * (BENCH_PIN=0 leaves both to the scheduler); the attacker's clients are a
 * process of their own (bot-attack-clients.ts), so that their sockets do not
 * delay the event loop that times people's acks. Each phase prints the
 * server's CPU per move, of the whole process and of its main thread, and
 * its event loop's delay, so that what the server spends can be told from
 * what the clients spend. With the attack, the CPU of the moves that are not
 * the attack's is taken at the rate measured without it, and the rest is
 * the attack's, per move (its people's moves and the computer's replies).
 * BENCH_CPU_PROF=<dir> writes the server's CPU profile there (node --cpu-prof).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PRESETS } from '@oanquan/rules';
import { startServerProcess } from '@oanquan/testkit';
import { engines, scratchTarget } from '../src/testing/databases.js';
import { HumanSide } from '../src/testing/human-side.js';
import { newGuest } from '../src/testing/live.js';
import { BOT_LEVEL as LEVEL, botGame } from './bot-game-client.js';
import { peoplePlaying, percentiles, quantile } from './people-playing.js';
import { cpuLine, pin, serverLoopDelay, watchServer, type ServerCpu } from './server-share.js';

const ATTACK_GUESTS = Number(process.env.BENCH_ATTACK_GUESTS ?? 110);
const GAMES_EACH = Number(process.env.BENCH_ATTACK_GAMES_EACH ?? 3);
const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 30);
const MOVE_DELAY_MS = 600;
const VICTIM_THINK_MS = 1000;
const ATTACKER_ADDRESS = '198.51.100.7';
const VICTIM_ADDRESS = '203.0.113.9';
/** What the server logs when a task it runs on its own fails (warnings and errors). */
const PINNED = process.env.BENCH_PIN !== '0';
const CPU_PROF = process.env.BENCH_CPU_PROF;
const METRICS_PORT = 9300 + (process.pid % 500);
/** The attacker's clients' nice value (BENCH_ATTACKER_NICE; 0 runs them beside the people measured as equals). */
const ATTACKER_NICE = Number(process.env.BENCH_ATTACKER_NICE ?? 10);
const PERIODIC = /sweep failed|tick failed|timeout failed|abandoned match failed|pulse|was down|cleanup|queue failed|heartbeat|refresh failed/i;

const engine = engines.includes('postgresql') ? 'postgresql' : 'pglite';
const scratch = await scratchTarget(engine);
const database: Record<string, string> = scratch.target.kind === 'postgresql' ? { DATABASE_URL: scratch.target.url } : {};
const server = await startServerProcess({
  ...database,
  BOT_MOVE_DELAY_MS: String(MOVE_DELAY_MS),
  LOG_LEVEL: 'warn',
  // The attacker's guests and sockets are not what is measured here.
  RATE_LIMIT_GUESTS_PER_HOUR: '100000',
  // Everyone here connects from loopback: the games are started as from the addresses the bench names (X-Forwarded-For).
  TRUST_PROXY: 'loopback',
  MAX_SOCKETS_PER_ADDRESS: '100000',
  METRICS_PORT: String(METRICS_PORT),
  METRICS_HOST: '127.0.0.1',
  // The computer's settings given to the bench (BOT_YIELD_MAX_WAIT_MS=0, say, to see the server without its priorities).
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('BOT_') && name !== 'BOT_MOVE_DELAY_MS')),
}, { nodeArgs: CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [] });
const url = server.url;
// This process's own delay: a late ack can be the measurer's, whose core every client shares.
const benchLoop = monitorEventLoopDelay({ resolution: 10 });
benchLoop.enable();
const metricsUrl = `http://127.0.0.1:${METRICS_PORT}/metrics`;
// The server (and the engine threads it starts later) on core 0, every client of this bench on core 1.
const pinned = PINNED && pin(server.child.pid!, 0) && pin(process.pid, 1);

/**
 * The victim: a person playing the computer, thinking a second a move, from
 * an address of their own (their own guest and socket), until `endsAt`; what
 * did not happen by then is told as a failure.
 */
async function victim(endsAt: number): Promise<{ acks: number[]; replies: number[]; starts: number[]; failures: string[] }> {
  const acks: number[] = [];
  const replies: number[] = [];
  const starts: number[] = [];
  const failures: string[] = [];
  const until = () => performance.now() > endsAt;
  while (!until()) {
    const asked = performance.now();
    const game = await botGame(url, await newGuest(url), VICTIM_ADDRESS, undefined, endsAt).catch((error: unknown) => {
      failures.push(`game not started: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!game) break;
    const { client, room, seat } = game;
    starts.push(performance.now() - asked);
    let acked = 0;
    // Heard after the client has recorded the event (its own listener came first).
    client.socket.on('match:event', () => {
      if (client.events.at(-1)?.event.type === 'moved' && human.lastMover() !== seat && acked > 0) {
        replies.push(performance.now() - acked);
        acked = 0;
      }
    });
    const request = client.request.bind(client);
    client.request = (async (event: 'move', payload: unknown) => {
      const t0 = performance.now();
      const ack = await request(event, payload);
      acked = performance.now();
      if (event === 'move') acks.push(acked - t0);
      return ack;
    }) as typeof client.request;
    const human = new HumanSide(client, room.matchId, seat, { seed: 1 + acks.length });
    try {
      while (!until() && !human.ended()) await human.playUntilEnd(PRESETS.classic, 1, Math.max(1, endsAt - performance.now()), VICTIM_THINK_MS);
    } catch (error) {
      // Waiting for the computer is cut short at the end of the phase: only a wait that ended sooner failed.
      if (!until()) failures.push(error instanceof Error ? error.message : String(error));
    }
    client.close();
  }
  return { acks, replies, starts, failures };
}

/**
 * The attack, in a process of its own on the clients' core (bot-attack-clients.ts);
 * answers how many games were let through and what was refused, by code, then its progress.
 */
async function attack() {
  // A real attacker's scripts run on machines of their own: here they share the clients' core with the people measured
  // (and PostgreSQL with both), so they run below them, and what they spend delays those acks no more than the network would.
  const command = [process.execPath, '--import', 'tsx', 'bench/bot-attack-clients.ts'];
  const child = spawn(PINNED ? 'nice' : command[0]!, PINNED ? ['-n', String(ATTACKER_NICE), ...command] : command.slice(1), {
    env: { ...process.env, ATTACK_URL: url, ATTACKER_ADDRESS, ATTACK_GUESTS: String(ATTACK_GUESTS), GAMES_EACH: String(GAMES_EACH) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const state = { running: 0, moves: 0, errors: 0, sample: [] as string[] };
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<{ admitted: number; refused: Record<string, number> }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the attack's clients exited (${code})`)));
    lines.on('line', (line) => {
      const message = JSON.parse(line) as typeof state & { admitted?: number; refused?: Record<string, number> };
      if (message.admitted !== undefined) resolve({ admitted: message.admitted, refused: message.refused ?? {} });
      else Object.assign(state, message);
    });
  });
  return {
    admitted: first.admitted,
    refused: new Map(Object.entries(first.refused)),
    running: () => state.running,
    moves: () => state.moves,
    errors: () => state,
    stop: () => child.kill('SIGTERM'),
  };
}

/** The server's warnings and errors in its output since `from`, by message. */
function logged(from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of server.output().slice(from).split('\n')) {
    const match = /"level":(40|50).*?"msg":"([^"]*)"/.exec(line);
    if (match) counts.set(`${match[1] === '50' ? 'error' : 'warn'}: ${match[2]}`, (counts.get(`${match[1] === '50' ? 'error' : 'warn'}: ${match[2]}`) ?? 0) + 1);
  }
  return counts;
}

/** `attackMoves`: the attack's moves so far (its people's and the computer's replies). */
async function phase(name: string, attackMoves = () => 0, alone?: { cpu: ServerCpu; moves: number }) {
  const from = server.output().length;
  const ends = performance.now() + PHASE_SECONDS * 1000;
  const over = () => performance.now() > ends;
  await serverLoopDelay(metricsUrl);
  benchLoop.reset();
  const attackBefore = attackMoves();
  const watch = watchServer(server.child.pid!);
  const [people, own] = await Promise.all([peoplePlaying(url, over, 0), victim(ends)]);
  const cpu = watch.stop();
  const loop = await serverLoopDelay(metricsUrl);
  const attacked = attackMoves() - attackBefore;
  const moves = people.length + own.acks.length + own.replies.length;
  const logs = logged(from);
  const periodic = [...logs].filter(([message]) => PERIODIC.test(message));
  console.log(`${name} (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}):`);
  console.log(`  two people: move ack ${percentiles(people)}`);
  console.log(`  victim against the computer: game made and past its opener in ${percentiles(own.starts)}; move ack ${percentiles(own.acks)}`);
  const late = own.replies.filter((ms) => ms > MOVE_DELAY_MS + 200).length;
  console.log(`  victim's computer reply (deadline ${MOVE_DELAY_MS} ms): ${percentiles(own.replies)}; ${late} over deadline + 200 ms`);
  if (own.failures.length) console.log(`  the victim's failures: ${own.failures.join('; ')}`);
  console.log(`  server: event-loop delay p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms; ${cpuLine(cpu, moves + attacked)}`);
  console.log(`  the bench's clients: event-loop delay p99 ${(benchLoop.percentile(99) / 1e6).toFixed(1)} ms, max ${(benchLoop.max / 1e6).toFixed(1)} ms`);
  if (alone && attacked > 0) {
    // What the moves that are not the attack's would have cost at the rate measured without it; the rest is the attack's.
    const attackMs = (ms: number, was: number) => ((ms - (was / alone.moves) * moves) / attacked).toFixed(2);
    const total = (c: ServerCpu) => c.mainMs + c.nicedMs + c.otherMs;
    console.log(
      `  CPU per move: people's ${(total(alone.cpu) / alone.moves).toFixed(2)} ms (main thread ${(alone.cpu.mainMs / alone.moves).toFixed(2)} ms, without the attack); ` +
        `the attack's ${attackMs(total(cpu), total(alone.cpu))} ms (main thread ${attackMs(cpu.mainMs, alone.cpu.mainMs)} ms), over its ${attacked} moves`,
    );
  }
  console.log(`  periodic task failures: ${periodic.length ? periodic.map(([m, n]) => `${n}× ${m}`).join('; ') : 'none'}`);
  const other = [...logs].filter(([message]) => !PERIODIC.test(message));
  if (other.length) console.log(`  other warnings and errors: ${other.map(([m, n]) => `${n}× ${m}`).join('; ')}`);
  return { people, own, cpu, moves, loop };
}

try {
  console.log(`engine ${engine}; ${PHASE_SECONDS} s per phase; level ${LEVEL}; the computer's move lands ${MOVE_DELAY_MS} ms after its turn began`);
  console.log(pinned ? `server pinned to core 0, the bench clients to core 1 (taskset), the attacker's at nice ${ATTACKER_NICE}; PostgreSQL unpinned` : 'nothing pinned');
  const alone = await phase('without the attack');
  const attacker = await attack();
  console.log(`attack: ${ATTACK_GUESTS} guests from one address asked for ${GAMES_EACH} games each: ${attacker.admitted} started; refused: ${[...attacker.refused].map(([code, n]) => `${n}× ${code}`).join(', ') || 'none'}`);
  // Measured once the games let through are under way (past their openers), or after two minutes.
  const settling = performance.now() + 120_000;
  while (attacker.running() < attacker.admitted && performance.now() < settling) await new Promise((resolve) => setTimeout(resolve, 500));
  const movesBefore = attacker.moves();
  const started = performance.now();
  // Each of the attack's moves is answered by the computer's: both are the attack's work.
  const beside = await phase(`with the attack (${attacker.running()} of its games being played)`, () => 2 * attacker.moves(), alone);
  const rate = (attacker.moves() - movesBefore) / ((performance.now() - started) / 1000);
  const failed = attacker.errors();
  attacker.stop();
  console.log(`  the attack's own moves: ${rate.toFixed(0)} a second${failed.errors ? `; ${failed.errors} of its games failed: ${failed.sample.join('; ')}` : ''}`);
  const p99 = (values: number[]) => quantile([...values].sort((x, y) => x - y), 99);
  console.log(
    `goals: people's ack p99 ${p99(beside.people).toFixed(1)} ms against 1.5 × ${p99(alone.people).toFixed(1)} = ${(1.5 * p99(alone.people)).toFixed(1)} ms; ` +
      `victim's ack p99 ${p99(beside.own.acks).toFixed(1)} ms against ${(1.5 * p99(alone.own.acks)).toFixed(1)} ms; ` +
      `computer reply p99 ${p99(beside.own.replies).toFixed(1)} ms against ${MOVE_DELAY_MS + 200} ms`,
  );
  console.log(
    `ratios (with / without the attack): people's ack p99 ×${(p99(beside.people) / p99(alone.people)).toFixed(2)}; ` +
      `server event-loop delay p99 ×${(beside.loop.p99 / alone.loop.p99).toFixed(2)}`,
  );
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  await scratch.drop();
}
process.exit(0);
