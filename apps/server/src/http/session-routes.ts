import type { FastifyInstance, FastifyRequest } from 'fastify';
import { renameRequest, type MeResponse, type PublicPlayer, type SessionResponse } from '@oanquan/protocol';
import type { PlayerService } from '../players/player-service.js';
import { parseInput } from './validate.js';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

// The rate limiter and the handler both ask who sent a request; one lookup answers both.
const authenticated = new WeakMap<FastifyRequest, Promise<PublicPlayer>>();

export function requirePlayer(players: PlayerService, request: FastifyRequest): Promise<PublicPlayer> {
  let player = authenticated.get(request);
  if (!player) {
    player = players.authenticate(bearerToken(request));
    authenticated.set(request, player);
  }
  return player;
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
