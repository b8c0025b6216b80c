import type { LiveGame, LiveGames } from '@oanquan/protocol';
import { apiRequest } from '../net/api.js';

/** How often the list of games in play is read again: often enough for the small boards to follow the moves. */
export const LIVE_REFRESH_MS = 3000;

/** The highest-rated games in play, read again every few seconds while `start` runs. */
export class LiveGameFeed {
  games = $state.raw<readonly LiveGame[] | null>(null);

  start(onRead?: (games: readonly LiveGame[]) => void): () => void {
    let stopped = false;
    const read = async () => {
      const answer = await apiRequest<LiveGames>('/api/live');
      if (stopped || !answer.ok) return;
      this.games = answer.data.games;
      onRead?.(this.games);
    };
    void read();
    const timer = setInterval(() => void read(), LIVE_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }
}
