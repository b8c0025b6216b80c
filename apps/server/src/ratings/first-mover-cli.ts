import { loadConfig } from '../config.js';
import { openDatabase, targetFromConfig } from '../db/database.js';
import { bandTable, firstMoverByBand } from './first-mover-stats.js';

/**
 * `pnpm stats:first-mover`: the first mover's score in the rated games of
 * the configured database (DATABASE_URL, or the embedded one, which only one
 * process can open: stop the server first), by rating band. Read-only.
 */
const db = await openDatabase(targetFromConfig(loadConfig()));
try {
  console.log(bandTable(await firstMoverByBand(db)));
} finally {
  await db.close();
}
