import type { FastifyInstance } from 'fastify';
import { uuid, type FollowState } from '@oanquan/protocol';
import type { PlayerService } from '../players/player-service.js';
import type { Follows } from '../social/follows.js';
import { requirePlayer } from './session-routes.js';
import { parseInput } from './validate.js';

/** GET, PUT and DELETE /api/follows/<playerId>: whether the caller follows that player, after following or unfollowing them. */
export async function followRoutes(app: FastifyInstance, { players, follows }: { players: PlayerService; follows: Follows }) {
  const route = '/follows/:playerId';
  type Route = { Params: { playerId: string } };

  app.get<Route>(route, async (request): Promise<FollowState> => {
    const followee = parseInput(uuid, request.params.playerId);
    return { following: await follows.isFollowing((await requirePlayer(players, request)).id, followee) };
  });

  app.put<Route>(route, async (request): Promise<FollowState> => {
    const followee = parseInput(uuid, request.params.playerId);
    await follows.follow((await requirePlayer(players, request)).id, followee);
    return { following: true };
  });

  app.delete<Route>(route, async (request): Promise<FollowState> => {
    const followee = parseInput(uuid, request.params.playerId);
    await follows.unfollow((await requirePlayer(players, request)).id, followee);
    return { following: false };
  });
}
