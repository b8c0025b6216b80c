import { buildApp } from './app.js';
import { loadConfig, paths } from './config.js';
import { openDatabase, targetFromConfig } from './db/database.js';
import { sizeHeap } from './heap-sizing.js';
import { backfillUsernameSkeletons } from './players/username-backfill.js';
import { isRedisOutage } from './redis-outage.js';
import { chooseWasmTiers } from './wasm-tiers.js';

const config = loadConfig();
const target = targetFromConfig(config);
chooseWasmTiers(target);
const db = await openDatabase(target, { migrationsDir: paths.migrations });
const app = await buildApp(config, db);
sizeHeap(() => app.http.eventsInFlight.taken);
if (db.migrations) {
  app.http.log.info({ applied: db.migrations.applied, database: db.kind }, 'database ready');
}
const skeletons = await backfillUsernameSkeletons(db, app.http.log);
if (skeletons > 0) app.http.log.info({ accounts: skeletons }, 'usernames given their look-alike skeletons');
process.on('unhandledRejection', (reason) => {
  // Rethrown: fatal, as without a handler.
  if (!isRedisOutage(reason)) throw reason;
  app.http.log.warn({ err: reason }, 'Redis went away under a request of its client');
});
await app.http.listen({ port: config.PORT, host: config.HOST });
// Ready from here: the database answered (migrations, the first pulse) and the port is open. Time since node started, and the CPU it took, which stays comparable on a busy machine.
const cpu = process.cpuUsage();
const startup = { readyMs: Math.round(performance.now()), cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
app.http.log.info({ ...startup, database: db.kind }, 'ready');
// The one line for a person, beside the JSON logs: where to point the browser.
const wildcard = config.HOST === '0.0.0.0' || config.HOST === '::';
console.log(`Open http://${wildcard ? 'localhost' : config.HOST}:${config.PORT} (ready ${startup.readyMs} ms after start)`);

// SIGTERM (an orchestrator, a rolling restart) drains, so players see at most a brief reconnection; Ctrl-C stops at once.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.http.log.info({ signal, drain: signal === 'SIGTERM' }, 'shutting down');
    (signal === 'SIGTERM' ? app.drain() : app.close()).then(
      () => process.exit(0),
      (error: unknown) => {
        app.http.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
