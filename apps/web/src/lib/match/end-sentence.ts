import type { MatchResult, Seat } from '@oanquan/protocol';
import type { MessageKey } from '../i18n/en.js';
import type { Params } from '../i18n/interpolate.js';

type Translate = (key: MessageKey, params?: Params) => string;

/**
 * Why a match ended, told to the one reading it: the player who left reads
 * "You left", their opponent "Your opponent left", anyone else "Hổ 845
 * left". `viewer` is the reader's seat, null for a spectator or a list.
 * Endings by the rules (R4) read the same for everyone.
 */
export function endSentence(t: Translate, result: MatchResult, viewer: Seat | null, names: readonly [string, string]): string {
  const { reason, winner } = result;
  if (reason !== 'resign' && reason !== 'timeout' && reason !== 'abandon') return t(`reason.${reason}`);
  if (winner === null) return t(reason === 'abandon' ? 'reason.bothLeft' : `reason.${reason}`);
  const loser: Seat = winner === 0 ? 1 : 0;
  if (viewer === loser) return t(`end.${reason}.you`);
  if (viewer === winner) return t(`end.${reason}.opponent`, { name: names[loser] });
  return t(`end.${reason}.named`, { name: names[loser], winner: names[winner] });
}
