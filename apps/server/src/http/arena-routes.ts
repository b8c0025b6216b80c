import type { FastifyInstance, FastifyRequest } from 'fastify';
import { arenaCode, arenaPageQuery, createArenaRequest, uuid, type ArenaList, type ArenaView } from '@oanquan/protocol';
import type { ArenaDirector } from '../arenas/arena-director.js';
import type { ArenaAct, ArenaLimits } from '../arenas/arena-limits.js';
import type { ArenaPlayed, ArenaService } from '../arenas/arena-service.js';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { PlayerService } from '../players/player-service.js';
import { requestAddress } from './client-address.js';
import { sessionToken } from './session-cookie.js';
import { requirePaidPlayer, requirePlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export interface ArenaRouteOptions {
  players: PlayerService;
  costs: CostBudgets;
  arenas: ArenaService;
  director: ArenaDirector;
  limits: ArenaLimits;
}

/**
 * GET /arenas (the schedule), POST /arenas (a private one), GET /arenas/:code,
 * POST /arenas/:code/join and /pause, GET /players/:id/arenas. Joining pays
 * for a seat, as the queue does; making one, for a room. Reads, joins and
 * pauses are budgeted per person and per address (ArenaLimits); a join or
 * a pause wakes the director, which ticks at most once a tick however
 * many come, and is answered without waiting for it.
 */
export async function arenaRoutes(app: FastifyInstance, { players, costs, arenas, director, limits }: ArenaRouteOptions) {
  /**
   * The reader, when they sent a token (a read needs none), after their address's budget and then their own are charged;
   * a read knows a guest by their token alone (PlayerService.readerOf).
   */
  const charged = async (request: FastifyRequest, act: ArenaAct): Promise<string | null> => {
    await limits.take(act, null, requestAddress(request));
    const token = sessionToken(request);
    const reader = !token ? null : act === 'read' ? await players.readerOf(token) : (await requirePlayer(players, request)).id;
    if (reader !== null) await limits.takePersonal(act, reader);
    return reader;
  };

  app.get('/arenas', async (): Promise<ArenaList> => arenas.list());

  app.post('/arenas', async (request, reply): Promise<ArenaView> => {
    const player = await requirePaidPlayer(players, costs, request, 'room');
    const body = parseInput(createArenaRequest, request.body ?? {});
    reply.status(201);
    return arenas.create(player, body);
  });

  app.get<{ Params: { code: string }; Querystring: unknown }>('/arenas/:code', async (request): Promise<ArenaView> => {
    const code = parseInput(arenaCode, request.params.code);
    const { page } = parseInput(arenaPageQuery, request.query ?? {});
    return arenas.view(code, page, await charged(request, 'read'));
  });

  app.post<{ Params: { code: string } }>('/arenas/:code/join', async (request): Promise<ArenaView> => {
    const code = parseInput(arenaCode, request.params.code);
    // Charged before anything is read, so that a flood of joins past its budget costs no query.
    await charged(request, 'entry');
    // Before the seat is paid for: no such arena, no seat.
    const arena = await arenas.find(code);
    const player = await requirePaidPlayer(players, costs, request, 'seat');
    await arenas.join(code, player, arena);
    void director.wake();
    return arenas.view(code, 1, player.id);
  });

  app.post<{ Params: { code: string } }>('/arenas/:code/pause', async (request): Promise<ArenaView> => {
    const code = parseInput(arenaCode, request.params.code);
    await charged(request, 'entry');
    const player = await requirePlayer(players, request);
    await arenas.pause(code, player);
    void director.wake();
    return arenas.view(code, 1, player.id);
  });

  app.get<{ Params: { id: string } }>('/players/:id/arenas', async (request): Promise<{ arenas: ArenaPlayed[] }> => {
    const id = parseInput(uuid, request.params.id);
    await charged(request, 'read');
    return { arenas: await arenas.playedBy(id) };
  });
}
