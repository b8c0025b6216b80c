import { setFlagsFromString } from 'node:v8';
import type { DatabaseTarget } from './db/database.js';

/**
 * V8's heap sized for a process that mostly holds idle sockets. Measured with
 * `pnpm bench:load --idle 1000,5000,10000` (PostgreSQL), RSS as it stands:
 *
 * - The young generation: V8 lets each of its two semi-spaces grow to 16 MB,
 *   and start-up (migrations, Prisma) had grown them to that already, 32 MB
 *   resident for the life of the process with or without traffic. Capped at
 *   8 MB each (`--max-semi-space-size=8`, in node-args.json: V8 sizes it as
 *   it starts, so every way of starting the server gives it to node).
 * - The old generation grows by a factor V8 derives from how fast the
 *   process allocated: up to 4× what survived the last full collection. A
 *   crowd of sockets arriving sets it high, and the idle sockets' pings then
 *   fill the room it left with garbage slowly enough that no collection comes:
 *   at 10,000 sockets 139 MB of old generation held garbage beside 158 MB
 *   alive. A fixed factor of 1.2 (`--heap-growing-percent=20`), set here
 *   because V8 reads it at every collection, left about 50 MB.
 *
 * Both, with the socket trims of release-requests.ts: 10,000 sockets
 * 416 → 286 MB RSS (heap 329 → 196 MB), no sockets 154 → 139 MB.
 *
 * The price is on the move path (`pnpm bench:load --games 300 --duration 20
 * --no-floor --cpu-prof`): the garbage collector's share of the server's busy
 * time went from 3.5 % to 6.0 % (4.8 % with the factor alone, 5.4 % with the
 * cap alone); 2 MB semi-spaces cost 9.7 %, so not those. Server CPU as the
 * bench prints it spread more between runs of one setting (35–37 % without,
 * 38–44 % with both) than the collector's share moved.
 *
 * With PGlite (the database in this process, `--games 100 --db pglite`, one
 * run each) the two together took the server from 48 to 57 % CPU, ack p50
 * 6.1 → 7.0 ms. The factor, which brings full collections sooner, is kept to
 * PostgreSQL, the deployment that holds crowds of idle sockets.
 */
export function sizeHeap(target: DatabaseTarget): void {
  if (target.kind === 'postgresql') setFlagsFromString('--heap-growing-percent=20');
}
