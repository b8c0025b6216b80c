import { z } from 'zod';
import { botLevel } from './common.js';
import { position } from './match.js';
import { timeControl } from './rooms.js';

/** One game in play, as the "Live now" list and the watch page show it. */
export const liveGame = z.object({
  matchId: z.uuid(),
  roomCode: z.string(),
  players: z.tuple([
    z.object({ id: z.uuid(), name: z.string(), rating: z.number(), botLevel: botLevel.nullable() }),
    z.object({ id: z.uuid(), name: z.string(), rating: z.number(), botLevel: botLevel.nullable() }),
  ]),
  rated: z.boolean(),
  timeControl: timeControl.nullable(),
  position,
  /** People watching, the two players aside, on every process. */
  spectators: z.number().int().min(0),
});
export type LiveGame = z.infer<typeof liveGame>;

/** GET /api/live: the highest-rated games in play (by the stronger player's rating), best first. */
export const liveGames = z.object({ games: z.array(liveGame) });
export type LiveGames = z.infer<typeof liveGames>;
