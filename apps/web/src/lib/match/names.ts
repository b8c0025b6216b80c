import type { MatchSnapshot, PublicPlayer } from '@oanquan/protocol';
import { DELETED_PLAYER_NAME } from '@oanquan/protocol/deleted-player';
import type { I18n } from '../i18n/i18n.svelte.js';

/**
 * A player's name to show: the computer is named in the reader's language
 * ("Máy (cấp 5)"), and so is a closed account ("người chơi đã xoá"); a
 * person by their own name.
 */
export function playerName(player: Pick<PublicPlayer, 'name' | 'botLevel'>, t: I18n['t']): string {
  if (player.botLevel) return t('bot.name', { level: player.botLevel });
  return player.name === DELETED_PLAYER_NAME ? t('player.deleted') : player.name;
}

/** The two players' display names; an empty seat gets `fallback`. */
export function seatNames(seats: MatchSnapshot['seats'], fallback: string, t?: I18n['t']): [string, string] {
  const name = (seat: MatchSnapshot['seats'][number]) => (seat ? (t ? playerName(seat, t) : seat.name) : fallback);
  return [name(seats[0]), name(seats[1])];
}
