import type { CreateBotGameRequest, RoomResponse } from '@oanquan/protocol';
import type { ApiResult } from '../net/api.js';
import { identity } from '../net/identity.svelte.js';

export const BOT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/**
 * Each level's Elo-like rating from the engine's round robin of the levels
 * and two fixed players (`pnpm bench` in packages/engine, whose levels.ts
 * holds the same figures): random play is 0.
 */
export const BOT_LEVEL_RATINGS: Readonly<Record<BotLevel, number>> = { 1: 200, 2: 300, 3: 390, 4: 500, 5: 590, 6: 660, 7: 740, 8: 810 };
/** On the same scale, a player who always takes the biggest capture. */
export const GREEDY_RATING = 430;

/** What a level's option says: its number and its rating. */
export function botLevelParams(level: BotLevel): { level: number; rating: number } {
  return { level, rating: BOT_LEVEL_RATINGS[level] };
}

/** A room against the computer; the caller goes to its link. */
export function startBotGame(request: CreateBotGameRequest): Promise<ApiResult<RoomResponse>> {
  return identity().request<RoomResponse>('/api/bot-games', { method: 'POST', body: request });
}
