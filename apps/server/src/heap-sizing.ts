import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';

/**
 * V8's heap sized for a process that mostly holds idle sockets, without
 * taxing the same process when it is busy. Measured with
 * `pnpm bench:load --idle 1000,5000,10000` (PostgreSQL), RSS as it stands:
 *
 * - The young generation: each of its two semi-spaces may grow to 16 MB
 *   (`--max-semi-space-size=16`, in node-args.json: V8 sizes it as it
 *   starts, so every way of starting the server gives it to node; it is
 *   V8's own default here, written down so that a node with another default
 *   keeps it). It was capped at 8 MB, which saved 16 MB resident with no
 *   traffic (139 → 154 MB with no sockets) but cost a busy process twice the
 *   young collections and three to four times the full ones: much of what a
 *   move allocates lives about as long as the pause before the next move
 *   (the bench's players think for about a second), and with 8 MB it outlived
 *   two young collections and was promoted. At 300 games (`pnpm bench:load --games 300
 *   --pin --warmup 20 --duration 60`) full collections went from 0.33 to
 *   0.11 per thousand moves; 10,000 idle sockets hold 256 MB RSS.
 * - The old generation grows by a factor V8 derives from how fast the
 *   process allocated: up to 4× what survived the last full collection. A
 *   crowd of sockets arriving sets it high, and the idle sockets' pings then
 *   fill the room it left with garbage slowly enough that no collection comes:
 *   at 10,000 sockets 139 MB of old generation held garbage beside 158 MB
 *   alive. A fixed factor of 1.2 (`--heap-growing-percent=20`) left about
 *   50 MB. With the socket trims of release-requests.ts: 10,000 sockets
 *   416 → 286 MB RSS (heap 329 → 196 MB), no sockets 154 → 139 MB.
 *
 * The fixed factor has a price under load: full collections come sooner. At
 * 1,000 games (`pnpm bench:load --games 1000`) it took the server from 70 to
 * 84 % CPU, and with PGlite (the database in this process) from 48 to 57 % at
 * 100 games. So it holds only while the process is idle: V8 reads the flag at
 * every full collection, and a second of a busy event loop, or one in which
 * the sockets brought a steady stream of events, sets the busy factor.
 *
 * - The events count because the loop alone misjudged a server playing 450
 *   games at a quarter of a core: never busy enough, so the idle factor
 *   ruled and the old generation was collected every few seconds.
 * - The busy factor is fixed too, at 2, because V8's own choice under a
 *   steady load was hardly larger than the idle one: its collections are
 *   quick beside the program, so it grew the limit by 10–20 % (55 → 66 MB
 *   at 450 games, a full collection every 5–6 s, each pausing the loop
 *   10–20 ms and its incremental steps up to 30 ms more).
 *
 * `pnpm bench:load --games 450 --pin --warmup 20 --duration 40`, runs
 * alternated: judged by the loop alone, full collections per thousand moves
 * 0.167 and ack p99 30–32 ms (three runs); by events too with V8's factor
 * when busy, 0.056–0.39 and 7–22 ms (eight runs); with the busy factor at 2,
 * 0.111 in each of five runs and 6–17.5 ms (median 9.2). Peak RSS stays
 * within 250–335 MB: the crowd's arrival sets it either way.
 *
 * When the loop has been quiet for a while, the idle factor returns with one
 * collection of all that can be collected, since the limit a busy spell set
 * would otherwise stand until garbage reached it. The crowd's arrival is
 * such a spell: 10,000 sockets 288 → 251–260 MB RSS. That collection pauses
 * the process once per return to idle, about 170–190 ms at 10,000 sockets,
 * when little is waiting on it.
 */
export const heapSizing = {
  /** A second with the event loop busy at least this share of it, or with this many client events, sets the busy growth factor. */
  busyUtilization: 0.3,
  busyEvents: 50,
  /** Seconds in a row under both of these bring the fixed factor back. */
  quietUtilization: 0.15,
  quietEvents: 10,
  quietSeconds: 10,
  idleGrowingPercent: 20,
  busyGrowingPercent: 100,
};

/** What one second held: the share of it the event loop was busy (0–1), and the client events the sockets took. */
export interface LoadSecond {
  utilization: number;
  events: number;
}

export type HeapMode = 'idle' | 'busy';

export interface HeapState {
  mode: HeapMode;
  /** Seconds in a row the loop has been quiet. */
  quiet: number;
}

/** The heap's mode after `second`. */
export function nextHeapState(state: HeapState, { utilization, events }: LoadSecond): HeapState {
  if (utilization >= heapSizing.busyUtilization || events >= heapSizing.busyEvents) return { mode: 'busy', quiet: 0 };
  const quiet = utilization < heapSizing.quietUtilization && events < heapSizing.quietEvents ? state.quiet + 1 : 0;
  return { mode: state.mode === 'busy' && quiet >= heapSizing.quietSeconds ? 'idle' : state.mode, quiet };
}

export interface HeapEffects {
  /** V8's old-generation growth factor, a fixed percentage (0 would be V8's own). */
  setGrowingPercent(percent: number): void;
  collectGarbage(done: () => void): void;
}

/**
 * Starts idle (the crowd has not come yet) and reads the event loop and the
 * count of client events taken (`eventsTaken`, a running total) each second;
 * the timer keeps no process alive.
 */
export function sizeHeap(eventsTaken: () => number, effects: HeapEffects = v8Effects(), utilization: () => number = loopUtilization()): { stop(): void } {
  let state: HeapState = { mode: 'idle', quiet: 0 };
  let taken = eventsTaken();
  effects.setGrowingPercent(heapSizing.idleGrowingPercent);
  const timer = setInterval(() => {
    const events = eventsTaken() - taken;
    taken += events;
    const next = nextHeapState(state, { utilization: utilization(), events });
    if (next.mode !== state.mode) {
      effects.setGrowingPercent(next.mode === 'idle' ? heapSizing.idleGrowingPercent : heapSizing.busyGrowingPercent);
      // The collection's own pause is not traffic: the reading starts again at its end, or the pause alone could count as a busy second.
      if (next.mode === 'idle') effects.collectGarbage(() => utilization());
    }
    state = next;
  }, 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The share of the time since its last call that the event loop was busy. */
function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return utilization;
  };
}

export function v8Effects(): HeapEffects {
  let session: Session | undefined;
  return {
    setGrowingPercent: (percent) => setFlagsFromString(`--heap-growing-percent=${percent}`),
    // DevTools' collection (all that can be collected, emptied pages given back to the system), through a session
    // of this process's own inspector. A plain full collection (`gc()`) left the pages to V8: no RSS came back.
    // The session stays connected: disconnecting it from the answer's callback hung the process.
    collectGarbage: (done) => {
      if (!session) {
        session = new Session();
        session.connect();
      }
      session.post('HeapProfiler.collectGarbage', done);
    },
  };
}
