import type { MatchSnapshot } from '@oanquan/protocol';

/** The two players' display names; an empty seat gets `fallback`. */
export function seatNames(seats: MatchSnapshot['seats'], fallback: string): [string, string] {
  return [seats[0]?.name ?? fallback, seats[1]?.name ?? fallback];
}
