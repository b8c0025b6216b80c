import { RULE_LIMITS, type PresetName, type RuleOptions } from '@oanquan/rules';
import { z } from 'zod';

/** Full rule options as they travel and are stored (R6): never only a preset name. */
export const ruleOptions = z
  .object({
    quanValue: z.union([z.literal(10), z.literal(5)]),
    quanNon: z.number().int().min(RULE_LIMITS.quanNon.min).max(RULE_LIMITS.quanNon.max),
    emptyQuanIsGap: z.boolean(),
    endWhen: z.enum(['quan-squares-empty', 'quan-pieces-captured']),
    skipOrigin: z.boolean(),
    plyLimit: z.number().int().min(RULE_LIMITS.plyLimit.min).max(RULE_LIMITS.plyLimit.max),
  })
  .strict() satisfies z.ZodType<RuleOptions>;

/** What a room's creator asks for: a preset, or explicit options (missing ones take R6's defaults). */
export const rulesChoice = z.union([
  z.object({ preset: z.enum(['classic', 'vietnam']) satisfies z.ZodType<PresetName> }).strict(),
  z.object({ options: ruleOptions.partial() }).strict(),
]);
export type RulesChoice = z.infer<typeof rulesChoice>;
