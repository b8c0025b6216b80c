import type { FastifyInstance } from 'fastify';
import { matchListQuery, uuid, type MatchList, type MatchRecord } from '@oanquan/protocol';
import type { MatchHistory } from '../match-records/match-history.js';
import { parseInput } from './validate.js';

export async function matchRoutes(app: FastifyInstance, { history }: { history: MatchHistory }) {
  app.get('/matches', async (request): Promise<MatchList> => history.list(parseInput(matchListQuery, request.query)));

  app.get<{ Params: { id: string } }>('/matches/:id', async (request): Promise<MatchRecord> => history.record(parseInput(uuid, request.params.id)));

  app.get<{ Params: { id: string } }>('/matches/:id/record', async (request, reply) => {
    const id = parseInput(uuid, request.params.id);
    const text = await history.recordText(id);
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="oanquan-${id.slice(0, 8)}.txt"`)
      .send(text);
  });
}
