import { describe, expect, it } from 'vitest';
import { DEFAULT_GLICKO, ratingStakes, returnGameStakes, updateGlicko } from './glicko2.js';

describe('Glicko-2', () => {
  it("reproduces the worked example of Glickman's paper", () => {
    // Rating 1500, RD 200, σ 0.06, τ 0.5; beats a 1400 (RD 30), loses to 1550 (RD 100) and 1700 (RD 300).
    const updated = updateGlicko({ rating: 1500, deviation: 200, volatility: 0.06 }, [
      { opponent: { rating: 1400, deviation: 30 }, score: 1 },
      { opponent: { rating: 1550, deviation: 100 }, score: 0 },
      { opponent: { rating: 1700, deviation: 300 }, score: 0 },
    ]);
    expect(updated.rating).toBeCloseTo(1464.06, 1);
    expect(updated.deviation).toBeCloseTo(151.52, 1);
    expect(updated.volatility).toBeCloseTo(0.05999, 4);
  });

  it('moves the winner up and the loser down by the same amount between equal new players, and narrows both', () => {
    const winner = updateGlicko(DEFAULT_GLICKO, [{ opponent: DEFAULT_GLICKO, score: 1 }]);
    const loser = updateGlicko(DEFAULT_GLICKO, [{ opponent: DEFAULT_GLICKO, score: 0 }]);
    expect(winner.rating).toBeGreaterThan(1500);
    expect(loser.rating).toBeCloseTo(3000 - winner.rating, 6);
    expect(winner.deviation).toBeLessThan(350);
    const draw = updateGlicko(DEFAULT_GLICKO, [{ opponent: DEFAULT_GLICKO, score: 0.5 }]);
    expect(draw.rating).toBeCloseTo(1500, 6);
  });

  it('widens the deviation of a player who did not play', () => {
    expect(updateGlicko({ rating: 1600, deviation: 50, volatility: 0.06 }, []).deviation).toBeGreaterThan(50);
  });
});

describe('rating stakes', () => {
  it('are the updates of a win, a draw and a loss, the winner gaining what the loser of equal standing loses', () => {
    const player = { rating: 1620, deviation: 90, volatility: 0.06 };
    const opponent = { rating: 1540, deviation: 200, volatility: 0.06 };
    const stakes = ratingStakes(player, opponent);
    expect(stakes.win).toEqual(updateGlicko(player, [{ opponent, score: 1 }]));
    expect(stakes.draw).toEqual(updateGlicko(player, [{ opponent, score: 0.5 }]));
    expect(stakes.loss).toEqual(updateGlicko(player, [{ opponent, score: 0 }]));
    expect(stakes.win.rating).toBeGreaterThan(player.rating);
    expect(stakes.loss.rating).toBeLessThan(stakes.draw.rating);
    // The stronger player gains less by winning than they lose by losing.
    expect(stakes.win.rating - player.rating).toBeLessThan(player.rating - stakes.loss.rating);
  });

  it('rates a pair as one period of two games, so the toss that decides their order changes nothing', () => {
    const equal = { rating: 1700, deviation: 120, volatility: 0.06 };
    // One win each: the toss winner (game 1 won) and the other (game 2 won) end exactly alike.
    const tossWinner = returnGameStakes(equal, equal, 1).loss;
    const other = returnGameStakes(equal, equal, 0).win;
    expect(tossWinner).toEqual(other);
    expect(tossWinner.rating).toBeCloseTo(1700, 9);
    expect(tossWinner.deviation).toBeLessThan(equal.deviation);
    // Two games count twice one: two wins move further than one.
    expect(returnGameStakes(equal, equal, 1).win.rating - 1700).toBeGreaterThan(ratingStakes(equal, equal).win.rating - 1700);
    expect(returnGameStakes(DEFAULT_GLICKO, DEFAULT_GLICKO, 0.5).draw.rating).toBeCloseTo(1500, 9);
  });
});
