import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { MatchHistory } from '../match-records/match-history.js';
import { DeadlineSweeper } from './deadline-sweeper.js';
import { MatchService } from './match-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The referee. */
    matches: MatchService;
    /** Past matches, as records. */
    history: MatchHistory;
  }
}

export const matchesPlugin = fp<{ config: Config; db: Database }>(
  async (app, { config, db }) => {
    const matches = new MatchService(db, app.publish, config.OPENER_TIMEOUT_MS, config.FIRST_MOVE_TIMEOUT_MS, undefined, { maxMovesInFlight: config.MAX_MOVES_IN_FLIGHT });
    app.feed.onRemoteEvents((envelopes) => matches.follow(envelopes));
    app.decorate('matches', matches);
    app.decorate('history', new MatchHistory(db));
    const sweeper = new DeadlineSweeper(db, matches, app.log, { abandonGraceMs: config.ABANDON_GRACE_MS });
    // Once every concern is in, an outage credit included: no sweep judges a clock before it.
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('preClose', () => sweeper.stop());
  },
  { name: 'matches', dependencies: ['feed'] },
);
