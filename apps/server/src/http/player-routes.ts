import type { FastifyInstance } from 'fastify';
import { uuid, type Leaderboard, type PlayerProfile } from '@oanquan/protocol';
import type { Profiles } from '../players/profiles.js';
import { parseInput } from './validate.js';

export async function playerRoutes(app: FastifyInstance, { profiles }: { profiles: Profiles }) {
  app.get('/leaderboard', async (): Promise<Leaderboard> => profiles.leaderboard());
  app.get<{ Params: { id: string } }>('/players/:id', async (request): Promise<PlayerProfile> => profiles.profile(parseInput(uuid, request.params.id)));
}
