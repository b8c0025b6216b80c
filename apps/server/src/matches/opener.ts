import type { Hand, Seat } from '@oanquan/protocol';

const BEATS: Record<Hand, Hand> = { rock: 'scissors', paper: 'rock', scissors: 'paper' };

/** Rock–paper–scissors: the seat whose hand wins, or null for a tie (the round is replayed). */
export function roundWinner(hand0: Hand, hand1: Hand): Seat | null {
  if (hand0 === hand1) return null;
  return BEATS[hand0] === hand1 ? 0 : 1;
}
