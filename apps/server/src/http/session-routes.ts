import type { FastifyInstance, FastifyRequest } from 'fastify';
import { renameRequest, type MeResponse, type PublicPlayer, type SessionResponse } from '@oanquan/protocol';
import type { PlayerService } from '../players/player-service.js';
import { parseInput } from './validate.js';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

export async function requirePlayer(players: PlayerService, request: FastifyRequest): Promise<PublicPlayer> {
  return players.authenticate(bearerToken(request));
}

export async function sessionRoutes(app: FastifyInstance, { players }: { players: PlayerService }) {
  app.post('/session', async (_request, reply): Promise<SessionResponse> => {
    reply.status(201);
    return players.createGuest();
  });

  app.get('/me', async (request): Promise<MeResponse> => ({ player: await requirePlayer(players, request) }));

  app.patch('/me', async (request): Promise<MeResponse> => {
    const player = await requirePlayer(players, request);
    const { name } = parseInput(renameRequest, request.body);
    return { player: await players.rename(player.id, name) };
  });
}
