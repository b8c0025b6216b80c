// R10.1 Two teams on the classic board: the game is R1–R9's two-player game,
// one side per team; only who makes the side's move changes. The members of
// a team take the side's turns in alternation (A1, B1, A2, B2, A1, …).

import type { Player } from './board.js';

/** A team member, 0 or 1, within a side. */
export type Member = 0 | 1;

export interface TeamSeat {
  readonly side: Player;
  readonly member: Member;
}

/**
 * Who makes ply `ply` (0-based). Sides alternate as R4.1 says; a side's
 * n-th turn (n from 0) is made by `(startMembers[side] + n) mod 2`. R10.1
 * leaves the first mover's team and member to the match; it does not say
 * which member of the other team moves first, so that is given too
 * (`startMembers`), decided outside the rules like the first.
 */
export function teamSeatAt(first: Player, startMembers: readonly [Member, Member], ply: number): TeamSeat {
  if (!Number.isSafeInteger(ply) || ply < 0) throw new RangeError('ply must be a non-negative integer');
  const side = ((first + ply) % 2) as Player;
  // The first side moves at plies 0, 2, 4, …, the other at 1, 3, 5, …: either way its turn number is ⌊ply / 2⌋.
  const member = ((startMembers[side] + Math.floor(ply / 2)) % 2) as Member;
  return { side, member };
}
