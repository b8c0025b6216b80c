import type { FastifyInstance } from 'fastify';
import { arenaCode, createArenaRequest, uuid, type ArenaList, type ArenaView } from '@oanquan/protocol';
import type { ArenaDirector } from '../arenas/arena-director.js';
import type { ArenaPlayed, ArenaService } from '../arenas/arena-service.js';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { PlayerService } from '../players/player-service.js';
import { requirePaidPlayer, requirePlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export interface ArenaRouteOptions {
  players: PlayerService;
  costs: CostBudgets;
  arenas: ArenaService;
  director: ArenaDirector;
}

/**
 * GET /arenas (the schedule), POST /arenas (a private one), GET /arenas/:code,
 * POST /arenas/:code/join and /pause, GET /players/:id/arenas. Joining pays
 * for a seat, as the queue does; making one, for a room.
 */
export async function arenaRoutes(app: FastifyInstance, { players, costs, arenas, director }: ArenaRouteOptions) {
  app.get('/arenas', async (): Promise<ArenaList> => arenas.list());

  app.post('/arenas', async (request, reply): Promise<ArenaView> => {
    const player = await requirePaidPlayer(players, costs, request, 'room');
    const body = parseInput(createArenaRequest, request.body ?? {});
    reply.status(201);
    return arenas.create(player, body);
  });

  app.get<{ Params: { code: string } }>('/arenas/:code', async (request): Promise<ArenaView> => arenas.view(parseInput(arenaCode, request.params.code)));

  app.post<{ Params: { code: string } }>('/arenas/:code/join', async (request): Promise<ArenaView> => {
    const code = parseInput(arenaCode, request.params.code);
    await arenas.find(code);
    const player = await requirePaidPlayer(players, costs, request, 'seat');
    await arenas.join(code, player);
    await director.wake();
    return arenas.view(code);
  });

  app.post<{ Params: { code: string } }>('/arenas/:code/pause', async (request): Promise<ArenaView> => {
    const code = parseInput(arenaCode, request.params.code);
    await arenas.pause(code, await requirePlayer(players, request));
    await director.wake();
    return arenas.view(code);
  });

  app.get<{ Params: { id: string } }>('/players/:id/arenas', async (request): Promise<{ arenas: ArenaPlayed[] }> => {
    return { arenas: await arenas.playedBy(parseInput(uuid, request.params.id)) };
  });
}
