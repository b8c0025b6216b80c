import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { GameServer } from '../realtime/game-server.js';
import { redisNames } from '../redis-names.js';
import { PresenceService } from './presence-service.js';
import { connectedPresenceStore, LocalPresenceStore } from './presence-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    presence: PresenceService;
  }
}

export const presencePlugin = fp<{ config: Config; db: Database; io: GameServer }>(
  async (app, { config, db, io }) => {
    const store = config.REDIS_URL ? await connectedPresenceStore(config.REDIS_URL, config.PRESENCE_HEARTBEAT_MS, app.log, redisNames(config.REDIS_PREFIX).presence) : new LocalPresenceStore();
    const presence = new PresenceService(io, db, app.log, config.ABANDON_GRACE_MS, store, config.PRESENCE_HEARTBEAT_MS);
    presence.start();
    app.matches.observe(presence);
    app.decorate('presence', presence);
    app.addHook('preClose', async () => presence.stop());
    app.addHook('onClose', () => presence.close());
  },
  { name: 'presence', dependencies: ['matches'] },
);
