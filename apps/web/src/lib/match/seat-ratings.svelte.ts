import type { PlayerProfile, PublicPlayer, Rating } from '@oanquan/protocol';
import { apiRequest } from '../net/api.js';

/**
 * The current rating of each seated player, read from their profiles. Read
 * again when asked (a rated match has just ended), so the room shows the
 * rating the change led to.
 */
export class SeatRatings {
  ratings = $state.raw<readonly [Rating | null, Rating | null]>([null, null]);
  private wanted = '';

  load(seats: readonly [PublicPlayer | null, PublicPlayer | null], refresh = ''): void {
    const key = `${seats[0]?.id ?? ''}|${seats[1]?.id ?? ''}|${refresh}`;
    if (key === this.wanted) return;
    this.wanted = key;
    void Promise.all(seats.map((player) => (player ? apiRequest<PlayerProfile>(`/api/players/${player.id}`) : null))).then((answers) => {
      if (this.wanted !== key) return;
      const [a, b] = answers.map((answer) => (answer?.ok ? answer.data.rating : null));
      this.ratings = [a ?? null, b ?? null];
    });
  }
}

/** A rating as shown beside a name: rounded, "?" while provisional. */
export function ratingText(rating: Pick<Rating, 'rating' | 'provisional'>): string {
  return `${Math.round(rating.rating)}${rating.provisional ? '?' : ''}`;
}
