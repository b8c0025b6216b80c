import { setFlagsFromString } from 'node:v8';
import type { DatabaseTarget } from './db/database.js';

/**
 * With PostgreSQL the one WebAssembly module in the process is Prisma's query
 * compiler, which serves only the cold paths (the hot path is plain pg). V8's
 * optimizing tier for it kept about 90 MB more resident for the life of the
 * process (server at start: 150–155 MB baseline-only, 243–246 MB with both tiers),
 * while a Prisma query took no longer on the baseline tier (findUnique round
 * trip 1.11–1.17 ms against 1.24–1.25 ms). With PGlite the database itself is
 * WebAssembly, every query runs in it, and it keeps both tiers.
 *
 * Must run before the first module is compiled: V8 reads the flag then.
 */
export function chooseWasmTiers(target: DatabaseTarget): void {
  if (target.kind === 'postgresql') setFlagsFromString('--liftoff-only');
}
