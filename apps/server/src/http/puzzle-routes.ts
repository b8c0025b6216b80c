import type { FastifyInstance, FastifyRequest } from 'fastify';
import { puzzleAttemptRequest, uuid, type PuzzleAttemptResponse, type PuzzleView } from '@oanquan/protocol';
import { ServiceError } from '../errors.js';
import type { CostBudgets } from '../players/cost-budgets.js';
import type { Identity, PlayerService } from '../players/player-service.js';
import type { PuzzleService, Solver } from '../puzzles/puzzle-service.js';
import { sessionToken } from './session-cookie.js';
import { requireIdentity, requirePaidPlayer } from './session-routes.js';
import { parseInput } from './validate.js';

export interface PuzzleRouteOptions {
  players: PlayerService;
  costs: CostBudgets;
  puzzles: PuzzleService;
}

/**
 * GET /puzzles/next, /puzzles/daily and /puzzles/:id (anyone; a signed-in
 * solver gets puzzles near their rating), POST /puzzles/:id/attempts (the
 * solver's moves so far; a guest's row is made on their first, and only an
 * account's tries are rated).
 */
export async function puzzleRoutes(app: FastifyInstance, { players, costs, puzzles }: PuzzleRouteOptions) {
  /** The asker, or null for someone without a session (or with one that is no longer valid). */
  const asker = async (request: FastifyRequest): Promise<Solver | null> => {
    if (!sessionToken(request)) return null;
    try {
      return solverOf(await requireIdentity(players, request));
    } catch (error) {
      if (error instanceof ServiceError) return null;
      throw error;
    }
  };

  app.get('/puzzles/next', async (request): Promise<PuzzleView> => puzzles.next(await asker(request)));
  // A new site still making its first puzzles has no puzzle of the day: that is no error (the home page asks on every visit).
  // Never kept by the browser: a 204 is cacheable by default, and a kept one hid the first puzzle after a reload.
  app.get('/puzzles/daily', async (request, reply): Promise<PuzzleView | undefined> => {
    reply.header('cache-control', 'no-store');
    const daily = await puzzles.daily(await asker(request));
    if (daily === null) return reply.code(204).send();
    return daily;
  });
  app.get<{ Params: { id: string } }>('/puzzles/:id', async (request): Promise<PuzzleView> => puzzles.byId(parseInput(uuid, request.params.id), await asker(request)));

  app.post<{ Params: { id: string } }>('/puzzles/:id/attempts', async (request): Promise<PuzzleAttemptResponse> => {
    const id = parseInput(uuid, request.params.id);
    const { moves } = parseInput(puzzleAttemptRequest, request.body);
    await requirePaidPlayer(players, costs, request, 'puzzle');
    return puzzles.attempt(solverOf(await requireIdentity(players, request)), id, moves);
  });
}

function solverOf(identity: Identity): Solver {
  return { id: identity.player.id, account: identity.username !== null };
}
