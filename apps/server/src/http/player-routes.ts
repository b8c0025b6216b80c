import type { FastifyInstance } from 'fastify';
import { uuid, type Leaderboard, type PlayerProfile } from '@oanquan/protocol';
import type { PlayerService } from '../players/player-service.js';
import type { Profiles } from '../players/profiles.js';
import { requireIdentity } from './session-routes.js';
import { parseInput } from './validate.js';

export async function playerRoutes(app: FastifyInstance, { profiles, players }: { profiles: Profiles; players: PlayerService }) {
  app.get('/leaderboard', async (): Promise<Leaderboard> => profiles.leaderboard());
  app.get<{ Params: { id: string } }>('/players/:id', async (request): Promise<PlayerProfile> =>
    profiles.profile(parseInput(uuid, request.params.id), () =>
      requireIdentity(players, request).then(
        (identity) => (identity.hasRow ? undefined : identity.player),
        () => undefined,
      ),
    ),
  );
}
