import type { FastifyInstance } from 'fastify';
import { uuid, type AnalysisResponse } from '@oanquan/protocol';
import type { AnalysisService } from '../analysis/analysis-service.js';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { PlayerService } from '../players/player-service.js';
import { requirePaidPlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export async function analysisRoutes(app: FastifyInstance, { players, costs, analyses }: { players: PlayerService; costs: CostBudgets; analyses: AnalysisService }) {
  app.get<{ Params: { id: string } }>('/matches/:id/analysis', async (request): Promise<AnalysisResponse> => analyses.read(parseInput(uuid, request.params.id)));

  /** Anyone signed in may ask (it is limited per player and per address); 202 while it waits, 200 when it was already there. */
  app.post<{ Params: { id: string } }>('/matches/:id/analysis', async (request, reply): Promise<AnalysisResponse> => {
    const player = await requirePaidPlayer(players, costs, request, 'engine');
    const { created, analysis } = await analyses.request(player.id, request.ip, parseInput(uuid, request.params.id));
    reply.status(created || analysis.status !== 'done' ? 202 : 200);
    return analysis;
  });
}
