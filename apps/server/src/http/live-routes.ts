import type { FastifyInstance } from 'fastify';
import type { LiveGames } from '@oanquan/protocol';
import type { LiveGameList } from '../social/live-games.js';

/** GET /api/live: the highest-rated games in play, for the "Live now" list and the watch page. */
export async function liveRoutes(app: FastifyInstance, { live }: { live: LiveGameList }) {
  app.get('/live', async (): Promise<LiveGames> => ({ games: await live.top() }));
}
