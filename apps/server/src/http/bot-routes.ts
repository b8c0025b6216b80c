import type { FastifyInstance } from 'fastify';
import { createBotGameRequest, type RoomResponse } from '@oanquan/protocol';
import type { BotGames } from '../bots/bot-games.js';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { PlayerService } from '../players/player-service.js';
import { requirePaidPlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export async function botRoutes(app: FastifyInstance, { players, costs, botGames }: { players: PlayerService; costs: CostBudgets; botGames: BotGames }) {
  app.post('/bot-games', async (request, reply): Promise<RoomResponse> => {
    const player = await requirePaidPlayer(players, costs, request, 'engine');
    const body = parseInput(createBotGameRequest, request.body);
    reply.status(201);
    return botGames.create(player.id, request.ip, body);
  });
}
