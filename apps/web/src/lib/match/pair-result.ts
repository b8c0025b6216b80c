import type { MatchSnapshot, Seat } from '@oanquan/protocol';

/**
 * A rated pair's two games are rated as one result (the server's
 * rated-pairing.ts): game 2's end replaces what game 1 applied. So at the
 * end of game 2 the room shows the pair: each seat's points over both games
 * (a win 1, a draw ½; the seats stay the same across the pair) and each
 * seat's rating from before game 1 to after game 2.
 */
export interface PairResult {
  readonly points: readonly [number, number];
  readonly before: readonly [number, number];
  readonly after: readonly [number, number];
}

type Ended = Pick<MatchSnapshot, 'pairing' | 'result' | 'ratings'>;

/** The pair's result once its return game has been rated; null for any other game. */
export function pairResult({ pairing, result, ratings }: Ended): PairResult | null {
  const firstGame = pairing?.game === 2 ? pairing.firstGame : null;
  if (!firstGame || !result || !ratings) return null;
  const points = (seat: Seat) => pointOf(firstGame.winner, seat) + pointOf(result.winner, seat);
  return {
    points: [points(0), points(1)],
    before: [firstGame.before[0].rating, firstGame.before[1].rating],
    after: [ratings[0].after, ratings[1].after],
  };
}

function pointOf(winner: Seat | null, seat: Seat): number {
  return winner === null ? 0.5 : winner === seat ? 1 : 0;
}

/** Points over a pair as players write them: 0, ½, 1, 1½, 2. */
export function pairPointsText(points: number): string {
  const whole = Math.floor(points);
  if (points === whole) return String(whole);
  return whole === 0 ? '½' : `${whole}½`;
}
