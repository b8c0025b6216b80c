import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Publish } from '../matches/match-service.js';
import type { Metrics } from '../metrics/metrics.js';
import type { GameServer } from '../realtime/game-server.js';
import type { ProcessChannel } from '../redis-adapter.js';
import { MatchFeed } from './match-feed.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed match events to and from every process (see match-feed.ts). */
    feed: MatchFeed;
    /** How the referee publishes what it committed: through the feed, counted. */
    publish: Publish;
  }
}

export const feedPlugin = fp<{ config: Config; db: Database; io: GameServer; metrics: Metrics; channel: ProcessChannel | undefined }>(
  async (app, { config, db, io, metrics, channel }) => {
    const feed = new MatchFeed(io, db, app.log, channel, config.MATCH_FEED_CHECK_MS);
    feed.start();
    app.decorate('feed', feed);
    app.decorate('publish', (code, envelopes) => {
      metrics.eventsPublished.inc(envelopes.length);
      return feed.publish(code, envelopes);
    });
    app.addHook('preClose', () => feed.stop());
  },
  { name: 'feed' },
);
