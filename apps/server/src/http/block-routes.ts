import type { FastifyInstance } from 'fastify';
import { uuid, type BlockList } from '@oanquan/protocol';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { PlayerService } from '../players/player-service.js';
import { requirePaidPlayer, requirePlayer } from './session-routes.js';
import { parseInput } from './validate.js';
import type { Blocks } from '../social/blocks.js';

/** GET /api/blocks, PUT and DELETE /api/blocks/<playerId>: whom the caller refuses challenges and quick messages from. */
export async function blockRoutes(app: FastifyInstance, { players, costs, blocks }: { players: PlayerService; costs: CostBudgets; blocks: Blocks }) {
  app.get('/blocks', async (request): Promise<BlockList> => blocks.list((await requirePlayer(players, request)).id));

  // Both answer with the list as it now is.
  app.put<{ Params: { playerId: string } }>('/blocks/:playerId', async (request): Promise<BlockList> => {
    const blocked = parseInput(uuid, request.params.playerId);
    // A block is kept, so it is paid for as a seat is (a spectating guest's row is made with it).
    const me = await requirePaidPlayer(players, costs, request, 'seat');
    await blocks.block(me.id, blocked);
    return blocks.list(me.id);
  });

  app.delete<{ Params: { playerId: string } }>('/blocks/:playerId', async (request): Promise<BlockList> => {
    const blocked = parseInput(uuid, request.params.playerId);
    const me = await requirePlayer(players, request);
    await blocks.unblock(me.id, blocked);
    return blocks.list(me.id);
  });
}
