import { ErrorCode } from '@oanquan/protocol/error-codes';
import type { Failure } from '../net/client-error.js';
import type { I18n } from './i18n.svelte.js';

/** A failure in the reader's language; the server's own words for a code we have no text for. */
export function errorText(i18n: I18n, problem: Pick<Failure, 'code' | 'message' | 'retryAfterSeconds'>): string {
  // A limit measured in minutes is no "slow down": say when, as the server did.
  if (problem.code === ErrorCode.RateLimited && problem.retryAfterSeconds) return i18n.t('refusal.wait', { time: waitText(i18n, problem.retryAfterSeconds) });
  const key = `error.${problem.code}`;
  return i18n.has(key) ? i18n.t(key) : problem.message || i18n.t('error.unknown');
}

/** "37 min", "45 s": whole minutes, rounded up, from a minute on. */
export function waitText(i18n: I18n, seconds: number): string {
  return seconds < 60 ? i18n.t('refusal.seconds', { n: seconds }) : i18n.t('refusal.minutes', { n: Math.ceil(seconds / 60) });
}
