/**
 * Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), on the
 * familiar Glicko scale. Each rated match is one rating period of one game
 * for each player.
 */
export interface Glicko {
  rating: number;
  deviation: number;
  volatility: number;
}

export interface GameOutcome {
  opponent: Pick<Glicko, 'rating' | 'deviation'>;
  /** 1 win, 0.5 draw, 0 loss. */
  score: number;
}

/** Constrains how fast volatility changes; the paper suggests 0.3–1.2. */
export const TAU = 0.5;
const SCALE = 173.7178;
const EPSILON = 0.000001;
export const DEFAULT_GLICKO: Glicko = { rating: 1500, deviation: 350, volatility: 0.06 };
/** Past this deviation a rating is marked provisional (as on the large chess sites). */
export const PROVISIONAL_DEVIATION = 110;

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

export function updateGlicko(player: Glicko, games: readonly GameOutcome[], tau = TAU): Glicko {
  // Step 2: to the Glicko-2 scale.
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  if (games.length === 0) {
    // Step 6 alone: an idle period only widens the deviation.
    return { ...player, deviation: Math.sqrt(phi * phi + sigma * sigma) * SCALE };
  }
  const opponents = games.map(({ opponent, score }) => {
    const muJ = (opponent.rating - 1500) / SCALE;
    const phiJ = opponent.deviation / SCALE;
    return { gJ: g(phiJ), eJ: expected(mu, muJ, phiJ), score };
  });
  // Steps 3 and 4: estimated variance and improvement.
  const v = 1 / opponents.reduce((sum, { gJ, eJ }) => sum + gJ * gJ * eJ * (1 - eJ), 0);
  const delta = v * opponents.reduce((sum, { gJ, eJ, score }) => sum + gJ * (score - eJ), 0);
  // Step 5: the new volatility, by the Illinois algorithm.
  const a = Math.log(sigma * sigma);
  const f = (x: number) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Steps 6 and 7: new deviation and rating; step 8: back to the Glicko scale.
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * opponents.reduce((sum, { gJ, eJ, score }) => sum + gJ * (score - eJ), 0);
  return { rating: muNew * SCALE + 1500, deviation: phiNew * SCALE, volatility: sigmaNew };
}

/** A rated match's possible outcomes for one player: their rating after a win, a draw and a loss. */
export interface RatingStakes {
  win: Glicko;
  draw: Glicko;
  loss: Glicko;
}

/**
 * What a rated match can do to `player` against `opponent`. The server rates
 * an ending with this very function, so the stakes shown before a match are
 * the change its end applies.
 */
export function ratingStakes(player: Glicko, opponent: Pick<Glicko, 'rating' | 'deviation'>): RatingStakes {
  const after = (score: number) => updateGlicko(player, [{ opponent, score }]);
  return { win: after(1), draw: after(0.5), loss: after(0) };
}

/**
 * What the return game of a rated pair can do to `player` (see the server's
 * rated-pairing.ts): the pair's two games are one rating period, both
 * against the opponent as they were before the pair, game 1's score
 * (`firstScore`, 1 win, 0.5 draw, 0 loss) already known; `player` too is as
 * they were before the pair. So the order of the results, which the toss
 * decides, changes nothing: one win each leaves two equal players equal.
 */
export function returnGameStakes(player: Glicko, opponent: Pick<Glicko, 'rating' | 'deviation'>, firstScore: number): RatingStakes {
  const after = (score: number) => updateGlicko(player, [{ opponent, score: firstScore }, { opponent, score }]);
  return { win: after(1), draw: after(0.5), loss: after(0) };
}
