import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { OutageCredit } from './outage-credit.js';

/**
 * A service that was down as a whole charges nobody for it: registered before
 * anything judges a clock (the sweeper starts once the app is ready), it
 * credits an outage first and holds the referee's changes until it has.
 */
export const outagePlugin = fp<{ config: Config; db: Database }>(
  async (app, { config, db }) => {
    const { matches } = app;
    const outages = new OutageCredit(db, app.log, { openerTimeoutMs: config.OPENER_TIMEOUT_MS, publish: app.publish });
    matches.creditOutagesWith(() => outages.settled());
    outages.onResume(() => matches.forgetCached());
    await outages.pulse();
    outages.start();
    app.addHook('preClose', () => outages.stop());
  },
  { name: 'outages', dependencies: ['matches'] },
);
