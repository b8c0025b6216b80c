import { gameRecordOf, type MatchRecord } from '@oanquan/protocol';
import { formatRecord } from '@oanquan/rules';
import type { I18n } from '../i18n/i18n.svelte.js';
import { endSentence } from '../match/end-sentence.js';
import { seatNames } from '../match/names.js';

/**
 * The record a reader downloads, written as the page shows the match: every
 * ply numbered with its screen name (`1. 3↺ 2. 2↻`), the players and the
 * ending in the reader's language. The headers keep their R7.2 keys, so the
 * file reads back anywhere a record is read.
 */
export function recordFile(match: MatchRecord, t: I18n['t'], origin: string): { name: string; text: string } {
  const names = seatNames(match.players, t('player.anonymous'), t);
  const ending = match.result ? [{ key: 'Ending', value: endSentence(t, match.result, null, names) }] : [];
  const record = gameRecordOf(match, names, `${origin}/m/${match.id}`, ending);
  return { name: `oanquan-${match.id.slice(0, 8)}.txt`, text: formatRecord(record, 'screen') };
}
