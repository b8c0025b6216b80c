import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { PeriodicTask } from '../periodic-task.js';
import { StaleDataCleanup } from './stale-data-cleanup.js';

const day = 24 * 3600 * 1000;

export const cleanupPlugin = fp<{ config: Config; db: Database }>(
  async (app, { config, db }) => {
    const cleanup = new StaleDataCleanup(db, app.log, {
      guestRetentionMs: config.GUEST_RETENTION_DAYS * day,
      idleRoomMs: config.IDLE_ROOM_HOURS * 3600 * 1000,
      endedSessionMs: config.GUEST_RETENTION_DAYS * day,
      batchSize: config.CLEANUP_BATCH_SIZE,
    });
    const runs = new PeriodicTask(() => cleanup.runLogged(), config.CLEANUP_INTERVAL_MS);
    runs.start();
    app.addHook('preClose', async () => {
      cleanup.stop();
      await runs.stop();
    });
  },
  { name: 'cleanup' },
);
