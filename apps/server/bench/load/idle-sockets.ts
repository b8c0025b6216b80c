import { isRetryable, resendPauseMs } from '@oanquan/protocol';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { freePort, startServerProcess } from '@oanquan/testkit';
import { scratchTarget } from '../../src/testing/databases.js';
import { rssBytes } from './process-stats.js';

/** Sockets per room: the first two to join take the seats, the others watch. */
const roomSize = 10;
/** Handshakes and joins under way at once, as a crowd arriving rather than one at a time. */
const concurrency = 50;
const MB = 2 ** 20;
const settleMs = Number(process.env.IDLE_SETTLE_MS ?? 20_000);

interface Memory {
  /** Resident as it stands, garbage and all: what the machine pays. */
  rss: number;
  /** Resident and heap after a full collection: what the sockets keep alive. */
  rssAfterGc: number;
  heapUsed: number;
  /** What V8 holds for its heap, used or not. */
  heapTotal: number;
  /** What V8 held before the collection, and of it the young generation (new space): the heap's share of RSS as it stands. */
  heapTotalBefore: number;
  newSpaceBefore: number;
  external: number;
}

/**
 * Resident memory and heap of one server process holding idle sockets, each
 * its own guest in a room of `roomSize` (two players, the rest spectators),
 * measured as the count grows through `steps`. The sockets live in this
 * process, the server in its own, so its RSS is its own.
 */
export async function idleSocketsRun(steps: number[], env: Record<string, string>): Promise<void> {
  const scratch = await scratchTarget('postgresql');
  const databaseUrl = scratch.target.kind === 'postgresql' ? scratch.target.url : '';
  const metricsPort = await freePort();
  const inspectorPort = await freePort();
  const server = await startServerProcess({
    ...env,
    DATABASE_URL: databaseUrl,
    METRICS_PORT: String(metricsPort),
    // The inspector, to force a full collection before reading the heap; other options
    // (such as --heapsnapshot-signal=SIGUSR2, to see where the memory goes) pass through.
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:${inspectorPort}`,
    // Idle means idle: no opener or first move is forfeited while the crowd gathers.
    OPENER_TIMEOUT_MS: String(24 * 3600_000),
    FIRST_MOVE_TIMEOUT_MS: String(24 * 3600_000),
  });
  const pid = server.child.pid!;
  const metricsText = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const memory = async (): Promise<Memory> => {
    const rss = rssBytes(pid);
    const before = await metricsText();
    await collectGarbage(inspectorPort);
    const after = await metricsText();
    const gauge = (text: string, name: string) => Number(new RegExp(`^oanquan_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    return {
      rss,
      rssAfterGc: rssBytes(pid),
      heapUsed: gauge(after, 'nodejs_heap_size_used_bytes'),
      heapTotal: gauge(after, 'nodejs_heap_size_total_bytes'),
      heapTotalBefore: gauge(before, 'nodejs_heap_size_total_bytes'),
      newSpaceBefore: gauge(before, 'nodejs_heap_space_size_total_bytes\\{space="new"\\}'),
      external: gauge(after, 'nodejs_external_memory_bytes'),
    };
  };
  const post = async (route: string, token?: string) => {
    const response = await fetch(server.url + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: '{}',
    });
    return (await response.json()) as { token: string; code: string };
  };
  const sockets: Socket[] = [];
  // A room is made by whichever of its members gets there first; the others wait for its code.
  const rooms = new Map<number, Promise<string>>();
  const roomOf = (index: number, token: string) => {
    const room = Math.floor(index / roomSize);
    if (!rooms.has(room)) rooms.set(room, post('/api/rooms', token).then((made) => made.code));
    return rooms.get(room)!;
  };
  const open = async (index: number): Promise<void> => {
    const guest = await post('/api/session');
    const code = await roomOf(index, guest.token);
    const socket = connect(server.url, { auth: { token: guest.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    // A crowd arriving on a busy machine may be told BUSY: sent again after the clients' jittered pauses.
    for (let attempt = 0; ; attempt++) {
      const joined = (await socket.timeout(30_000).emitWithAck('room:join', { code })) as { ok: boolean; code?: string };
      if (joined.ok) break;
      if (!joined.code || !isRetryable(joined.code) || attempt >= 10) throw new Error(`room:join refused: ${joined.code}`);
      await sleep(resendPauseMs(attempt));
    }
  };

  try {
    await sleep(2000);
    const base = await memory();
    console.log(`idle sockets, ${roomSize} to a room (2 players, ${roomSize - 2} spectators), each its own guest; websocket transport`);
    console.log('RSS and V8\'s heap as they stand; the heap and RSS after a full collection; per socket, the growth over no sockets (the first row).');
    console.log('| sockets | RSS MB | heap total (new space) MB | RSS after GC MB | heap used / total MB | external MB | RSS KB per socket | RSS after GC KB per socket | heap used KB per socket |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    console.log(row(0, base, base));
    let opened = 0;
    for (const target of steps) {
      await inPool(opened, target, open);
      opened = target;
      // Idle means a while without traffic: long enough for V8's memory reducer to give back what the crowd's arrival left.
      await sleep(settleMs);
      const now = await memory();
      console.log(row(target, now, base));
    }
    if (process.env.IDLE_HOLD_MS) await sleep(Number(process.env.IDLE_HOLD_MS));
  } finally {
    for (const socket of sockets) socket.close();
    server.child.kill('SIGTERM');
    await server.exited;
    await scratch.drop();
  }
}

/** Runs `task` for every index from `from` to `to`, `concurrency` at a time. */
async function inPool(from: number, to: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function row(sockets: number, now: Memory, base: Memory): string {
  const perSocket = (bytes: number) => (sockets ? (bytes / sockets / 1024).toFixed(1) : '–');
  return (
    `| ${sockets} | ${mb(now.rss)} | ${mb(now.heapTotalBefore)} (${mb(now.newSpaceBefore)}) | ${mb(now.rssAfterGc)} | ${mb(now.heapUsed)} / ${mb(now.heapTotal)} | ${mb(now.external)} | ` +
    `${perSocket(now.rss - base.rss)} | ${perSocket(now.rssAfterGc - base.rssAfterGc)} | ${perSocket(now.heapUsed - base.heapUsed)} |`
  );
}

/** A full garbage collection in the server, through its inspector (Chrome DevTools protocol). */
async function collectGarbage(inspectorPort: number): Promise<void> {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const inspector = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => inspector.once('open', resolve).once('error', reject));
  await new Promise((resolve) => {
    inspector.once('message', resolve);
    inspector.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  inspector.close();
}

function mb(bytes: number): string {
  return `${(bytes / MB).toFixed(0)}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
