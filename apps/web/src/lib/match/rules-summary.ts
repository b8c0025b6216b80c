import { PRESETS, sameRules, type RuleOptions } from '@oanquan/rules';
import type { TimeControl } from '@oanquan/protocol';
import type { MessageKey } from '../i18n/en.js';

/** Which preset a full option set is (R6), for a one-line description. */
export function presetKey(rules: RuleOptions): MessageKey {
  if (sameRules(rules, PRESETS.classic)) return 'rules.summary.classic';
  if (sameRules(rules, PRESETS.vietnam)) return 'rules.summary.vietnam';
  return 'rules.summary.custom';
}

export function timeControlParams(tc: TimeControl): { minutes: number; seconds: number } {
  return { minutes: Math.round((tc.initialSeconds / 60) * 100) / 100, seconds: tc.incrementSeconds };
}

/**
 * A time control in words: whole minutes as minutes, anything else with its
 * seconds ("15 s + 0 s", "1 min 30 s + 2 s"), never "0.25 min".
 */
export function timeControlText(t: (key: MessageKey, params?: Record<string, string | number>) => string, tc: TimeControl): string {
  const { initialSeconds: total, incrementSeconds: seconds } = tc;
  if (total % 60 === 0) return t('time.control', { minutes: total / 60, seconds });
  if (total < 60) return t('time.controlSeconds', { initial: total, seconds });
  return t('time.controlMixed', { minutes: Math.floor(total / 60), initial: total % 60, seconds });
}
