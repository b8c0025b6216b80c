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
