import { z } from 'zod';

/** The pools of the public queue: standard preset, these time controls (minutes + seconds). */
export const queuePools = ['3+2', '5+3', '10+5'] as const;
export const queuePool = z.enum(queuePools);
export type QueuePool = z.infer<typeof queuePool>;

export function poolTimeControl(pool: QueuePool): { initialSeconds: number; incrementSeconds: number } {
  const [minutes, increment] = pool.split('+').map(Number) as [number, number];
  return { initialSeconds: minutes * 60, incrementSeconds: increment };
}

/**
 * `rated` defaults to whether the player has an account: guests play casual
 * games, and asking for a rated one as a guest is refused (ACCOUNT_REQUIRED).
 * Rated entries are paired only with rated ones, casual with casual.
 */
export const queueJoinPayload = z.object({ pool: queuePool, rated: z.boolean().optional() }).strict();
export const queueLeavePayload = z.object({}).strict();

/** Server → a waiting player, every few seconds. */
export const queueStatus = z.object({ pool: queuePool, waitedMs: z.number().int(), waiting: z.number().int() });
export type QueueStatus = z.infer<typeof queueStatus>;

/** Server → both paired players: go to this room; its match starts with the opener. */
export const queueMatched = z.object({ roomCode: z.string(), matchId: z.uuid() });
export type QueueMatched = z.infer<typeof queueMatched>;
