import type { PublicPlayer, Seat } from '@oanquan/protocol';
import { seatOf } from '../match-records/match-store.js';
import { unchanged, type Decision } from './decision.js';

/**
 * A free seat of a waiting match for `player`, or the seat they already
 * hold; no seat while the match is past waiting (they watch). The second
 * seat taken starts the opener.
 */
export function decideSeat(match: { status: string; player0Id: string | null; player1Id: string | null }, player: PublicPlayer): Decision<Seat | null> {
  const seated = seatOf(match, player.id);
  if (seated !== null || match.status !== 'waiting') return unchanged(seated);
  const seat: Seat = match.player0Id === null ? 0 : 1;
  const bothSeated = seat === 1 ? match.player0Id !== null : match.player1Id !== null;
  const update = seat === 0 ? { player0Id: player.id } : { player1Id: player.id };
  return {
    result: seat,
    events: [{ type: 'seated', seat, player }],
    update: { ...update, ...(bothSeated ? { status: 'opener' as const } : {}) },
  };
}
