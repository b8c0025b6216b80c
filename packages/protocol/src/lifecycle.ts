import { z } from 'zod';

/** resign, abort (before the first move), claim (the opponent is gone past the grace period), rematch (offer or accept). */
export const matchActionPayload = z.object({ matchId: z.uuid() }).strict();

/**
 * Server → room: `presence`, not versioned (it is about connections, not the
 * game). `claimableAt` is when the present player may claim the win because
 * this seat's player has been gone too long; null while connected.
 */
export const presence = z.object({
  matchId: z.uuid(),
  seats: z.tuple([
    z.object({ connected: z.boolean(), claimableAt: z.string().nullable() }),
    z.object({ connected: z.boolean(), claimableAt: z.string().nullable() }),
  ]),
  spectators: z.number().int().min(0),
});
export type Presence = z.infer<typeof presence>;
