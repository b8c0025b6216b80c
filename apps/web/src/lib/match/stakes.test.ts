import { updateGlicko } from '@oanquan/protocol';
import { describe, expect, it } from 'vitest';
import { ratingDeltaText } from './score-text.js';
import { seatStakes } from './stakes.js';

const strong = { rating: 1712.4, deviation: 80, volatility: 0.06, provisional: false };
const fresh = { rating: 1500, deviation: 350, volatility: 0.06, provisional: true };

describe('the stakes of a rated match', () => {
  it('are the changes the rating update would make, written as the end screen writes them', () => {
    const [s0, s1] = seatStakes(true, [strong, fresh]);
    const change = (player: typeof strong, opponent: typeof strong, score: number) =>
      ratingDeltaText(player.rating, updateGlicko(player, [{ opponent, score }]).rating);
    expect(s0).toEqual({ win: change(strong, fresh, 1), draw: change(strong, fresh, 0.5), loss: change(strong, fresh, 0) });
    expect(s1).toEqual({ win: change(fresh, strong, 1), draw: change(fresh, strong, 0.5), loss: change(fresh, strong, 0) });
    // A new player's rating moves far more than an established one's.
    expect(Math.abs(parseInt(s1!.win.replace('\u2212', '-')))).toBeGreaterThan(Math.abs(parseInt(s0!.loss.replace('\u2212', '-'))));
  });

  it('in a rated pair’s return game lead to the pair rated as one period, so one win each leaves equal players equal', () => {
    const before = [fresh, fresh] as const;
    // Game 1 went to seat 0, and was rated on its own.
    const now = [
      { ...updateGlicko(fresh, [{ opponent: fresh, score: 1 }]), provisional: true },
      { ...updateGlicko(fresh, [{ opponent: fresh, score: 0 }]), provisional: true },
    ] as const;
    const [s0, s1] = seatStakes(true, now, { winner: 0, before: [before[0], before[1]] });
    // Seat 0 losing game 2 gives back all game 1 gave; seat 1 winning it gets back all game 1 took.
    expect(s0!.loss).toBe(ratingDeltaText(now[0].rating, 1500));
    expect(s1!.win).toBe(ratingDeltaText(now[1].rating, 1500));
    expect(s0!.loss.slice(1)).toBe(s1!.win.slice(1));
  });

  it('are nothing in a casual match or while a rating is unknown', () => {
    expect(seatStakes(false, [strong, fresh])).toEqual([null, null]);
    expect(seatStakes(true, [strong, null])).toEqual([null, null]);
  });
});
