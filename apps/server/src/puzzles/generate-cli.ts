// `pnpm puzzles:generate [count]`: fills the configured database (DATABASE_URL,
// or the embedded one under .data/) with puzzles from self-play, 500 unless
// told, on every core. With the embedded database, run it while the server
// is stopped: PGlite serves one process at a time.

import { availableParallelism } from 'node:os';
import { EnginePool } from '@oanquan/engine';
import { loadConfig, paths } from '../config.js';
import { openDatabase, targetFromConfig } from '../db/database.js';
import { countPuzzles } from './puzzle-store.js';
import { generatePuzzles } from './puzzle-generator.js';

const count = Number(process.argv[2] ?? 500);
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: puzzles:generate [count]');
  process.exit(2);
}

const config = loadConfig();
const db = await openDatabase(targetFromConfig(config), { migrationsDir: paths.migrations });
const pool = new EnginePool({ threads: availableParallelism(), nice: config.ENGINE_NICE });
const started = performance.now();
const cpu = process.cpuUsage();
try {
  const before = await countPuzzles(db);
  let shown = 0;
  const result = await generatePuzzles(db, pool, {
    count,
    parallel: pool.threads,
    onProgress: (stored) => {
      if (stored - shown >= 50 || stored >= count) {
        shown = stored;
        console.log(`${stored} / ${count}`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(
    `${db.kind}: ${result.stored} new puzzles from ${result.games} self-play games in ${seconds.toFixed(1)} s ` +
      `(${pool.threads} threads; this process's CPU ${((used.user + used.system) / 1e6).toFixed(1)} s, workers included); ${before + result.stored} in all`,
  );
} finally {
  await pool.close();
  await db.close();
}
