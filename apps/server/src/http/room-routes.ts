import type { FastifyInstance } from 'fastify';
import { createRoomRequest, roomCode, type RoomResponse } from '@oanquan/protocol';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { PlayerService } from '../players/player-service.js';
import type { RoomService } from '../rooms/room-service.js';
import { requirePaidPlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export async function roomRoutes(app: FastifyInstance, { players, costs, rooms }: { players: PlayerService; costs: CostBudgets; rooms: RoomService }) {
  app.post('/rooms', async (request, reply): Promise<RoomResponse> => {
    const player = await requirePaidPlayer(players, costs, request, 'room');
    // Only a missing body means "all defaults"; a JSON null, array or string is a malformed one.
    const body = parseInput(createRoomRequest, request.body === undefined ? {} : request.body);
    reply.status(201);
    return rooms.create(player.id, body);
  });

  app.get<{ Params: { code: string } }>('/rooms/:code', async (request) => {
    return rooms.describe(parseInput(roomCode, request.params.code));
  });
}
