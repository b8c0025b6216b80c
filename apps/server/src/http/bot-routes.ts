import type { FastifyInstance } from 'fastify';
import { createBotGameRequest, type RoomResponse } from '@oanquan/protocol';
import type { BotGames } from '../bots/bot-games.js';
import type { PlayerService } from '../players/player-service.js';
import { requirePlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export async function botRoutes(app: FastifyInstance, { players, botGames }: { players: PlayerService; botGames: BotGames }) {
  app.post('/bot-games', async (request, reply): Promise<RoomResponse> => {
    const player = await requirePlayer(players, request);
    const body = parseInput(createBotGameRequest, request.body);
    reply.status(201);
    return botGames.create(player.id, request.ip, body);
  });
}
