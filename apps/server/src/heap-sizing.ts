import { setFlagsFromString } from 'node:v8';

/**
 * V8's heap sized for a process that mostly holds idle sockets. Measured with
 * `pnpm bench:load --idle 1000,5000,10000` (PostgreSQL), RSS as it stands:
 *
 * - The young generation: V8 lets each of its two semi-spaces grow to 16 MB,
 *   and start-up (migrations, Prisma) had grown them to that already, 32 MB
 *   resident for the life of the process with or without traffic. Capped at
 *   2 MB each (`--max-semi-space-size=2`, in node-args.json: V8 sizes it as
 *   it starts, so it is given to node by every way of starting the server).
 * - The old generation grows by a factor V8 derives from how fast the
 *   process allocated: up to 4× what survived the last full collection. A
 *   crowd of sockets arriving sets it high, and the idle sockets' pings then
 *   fill the room it left with garbage slowly enough that no collection comes:
 *   at 10,000 sockets 139 MB of old generation held garbage beside 158 MB
 *   alive. A fixed factor of 1.2 (`--heap-growing-percent=20`), set here
 *   because V8 reads it at every collection, left 49 MB.
 *
 * Both: 10,000 sockets 416 → 301 MB RSS (heap 329 → 211 MB), no sockets
 * 154 → 130 MB. The move path (`pnpm bench:load --games 300 --duration 20
 * --no-floor`, server CPU and acknowledgement p50 / p99, one run each)
 * showed no cost beyond the runs' spread: 37 % and 4.5 / 424 ms without,
 * 41 % and 4.2 / 38 ms with both, 38 % and 7.5 / 133 ms with the factor alone.
 */
export function sizeHeap(): void {
  setFlagsFromString('--heap-growing-percent=20');
}
