import type { Challenge } from '@oanquan/protocol';
import type { I18n } from '../i18n/i18n.svelte.js';
import { presetKey, timeControlText } from '../match/rules-summary.js';

/** A challenge's terms in one line: "5 min + 3 s · rated · Classic rules". */
export function challengeTerms(t: I18n['t'], challenge: Pick<Challenge, 'timeControl' | 'rated' | 'rules'>): string {
  return [
    challenge.timeControl ? timeControlText(t, challenge.timeControl) : t('challenge.noClock'),
    t(challenge.rated ? 'list.rated' : 'list.casual'),
    t(presetKey(challenge.rules)),
  ].join(' · ');
}
