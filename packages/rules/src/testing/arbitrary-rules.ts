// Random rule option sets for the property tests: both presets and any
// valid combination of R6's options. Not part of the package.

import fc from 'fast-check';
import { PRESETS, RULE_LIMITS, resolveRules, type RuleOptions } from '../rule-options.js';

export const arbitraryOptions: fc.Arbitrary<RuleOptions> = fc
  .record({
    quanValue: fc.constantFrom(10 as const, 5 as const),
    quanNon: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: RULE_LIMITS.quanNon.max })),
    emptyQuanIsGap: fc.boolean(),
    endWhen: fc.constantFrom('quan-squares-empty' as const, 'quan-pieces-captured' as const),
    skipOrigin: fc.boolean(),
    plyLimit: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 400 })),
  })
  .map((options) => resolveRules(options));

export const arbitraryRules = fc.oneof(fc.constant(PRESETS.classic), fc.constant(PRESETS.vietnam), arbitraryOptions);

