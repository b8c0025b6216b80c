import { z } from 'zod';

/**
 * One account following another, one way (as on lichess): for now it lets
 * a player take challenges only from the people they follow.
 * GET, PUT and DELETE /api/follows/<playerId> answer whether the caller
 * follows that player, as it now stands.
 */
export const followState = z.object({ following: z.boolean() });
export type FollowState = z.infer<typeof followState>;
