import type { CreateBotGameRequest, RoomResponse } from '@oanquan/protocol';
import type { ApiResult } from '../net/api.js';
import { identity } from '../net/identity.svelte.js';

export const BOT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** A room against the computer; the caller goes to its link. */
export function startBotGame(request: CreateBotGameRequest): Promise<ApiResult<RoomResponse>> {
  return identity().request<RoomResponse>('/api/bot-games', { method: 'POST', body: request });
}
