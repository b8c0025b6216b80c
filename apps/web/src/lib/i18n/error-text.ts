import type { Failure } from '../net/client-error.js';
import type { I18n } from './i18n.svelte.js';

/** A failure in the reader's language; the server's own words for a code we have no text for. */
export function errorText(i18n: I18n, problem: Pick<Failure, 'code' | 'message'>): string {
  const key = `error.${problem.code}`;
  return i18n.has(key) ? i18n.t(key) : problem.message || i18n.t('error.unknown');
}
