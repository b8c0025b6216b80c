// R6 Variants and presets: the option set a game is played under, its legal
// ranges, the defaults and the two presets (classic, vietnam).

/** R2.2: points per quan piece. */
export type QuanValue = 5 | 10;

/** R4.2: what ends the game once the quan pieces are in play. */
export type EndWhen = 'quan-squares-empty' | 'quan-pieces-captured';

export interface RuleOptions {
  /** R2.2: points per captured quan piece. */
  readonly quanValue: QuanValue;
  /** R3.6: a mandarin square with its quan piece and fewer dân than this cannot be captured; 0 = off. */
  readonly quanNon: number;
  /** R3.3a: an empty mandarin square right after the last stone acts as a gap. */
  readonly emptyQuanIsGap: boolean;
  /** R4.2. */
  readonly endWhen: EndWhen;
  /** R3.2: a lap skips the square the handful came from. */
  readonly skipOrigin: boolean;
  /** R4.4: the game ends when the ply count reaches this. */
  readonly plyLimit: number;
}

export const QUAN_VALUES: readonly QuanValue[] = Object.freeze([10, 5] as const);
export const END_WHEN_VALUES: readonly EndWhen[] = Object.freeze([
  'quan-squares-empty',
  'quan-pieces-captured',
] as const);

/**
 * Legal ranges of the integer options. quanNon above 50 would equal 50 (no
 * square ever holds more), and a ply limit beyond 10000 only lets a broken
 * client keep a server busy.
 */
export const RULE_LIMITS = Object.freeze({
  quanNon: Object.freeze({ min: 0, max: 50 }),
  plyLimit: Object.freeze({ min: 1, max: 10000 }),
});

/**
 * Option sets already checked: resolving one of them again (every new game
 * does) skips the checks. Only frozen sets made here are added, so none can
 * change after its check.
 */
const CHECKED = new WeakSet<RuleOptions>();

function checked(rules: RuleOptions): RuleOptions {
  CHECKED.add(rules);
  return rules;
}

export const DEFAULT_RULES: RuleOptions = checked(
  Object.freeze({
    quanValue: 10,
    quanNon: 0,
    emptyQuanIsGap: false,
    endWhen: 'quan-squares-empty',
    skipOrigin: false,
    plyLimit: 400,
  }),
);

export const PRESETS: Readonly<{ classic: RuleOptions; vietnam: RuleOptions }> = Object.freeze({
  classic: DEFAULT_RULES,
  vietnam: checked(Object.freeze({ ...DEFAULT_RULES, quanNon: 5, emptyQuanIsGap: true })),
});

export type PresetName = keyof typeof PRESETS;

export type RulesValidation =
  | { readonly ok: true; readonly rules: RuleOptions }
  | { readonly ok: false; readonly message: string };

const OPTION_KEYS: readonly (keyof RuleOptions)[] = Object.freeze([
  'quanValue',
  'quanNon',
  'emptyQuanIsGap',
  'endWhen',
  'skipOrigin',
  'plyLimit',
]);

/**
 * Checks an untrusted option object. Missing options take their default
 * (R6); unknown keys and out-of-range values are errors, so a typo never
 * silently plays the default.
 */
export function validateRules(input: unknown): RulesValidation {
  if (input === undefined) return { ok: true, rules: DEFAULT_RULES };
  if (CHECKED.has(input as RuleOptions)) return { ok: true, rules: input as RuleOptions };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, message: 'rules must be an object' };
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      return { ok: false, message: `unknown rule option "${key}"` };
    }
  }
  const value = (key: keyof RuleOptions): unknown =>
    record[key] === undefined ? DEFAULT_RULES[key] : record[key];

  const quanValue = value('quanValue');
  if (quanValue !== 10 && quanValue !== 5) {
    return { ok: false, message: 'quanValue must be 10 or 5' };
  }
  const quanNon = value('quanNon');
  if (!isIntegerIn(quanNon, RULE_LIMITS.quanNon.min, RULE_LIMITS.quanNon.max)) {
    const { min, max } = RULE_LIMITS.quanNon;
    return { ok: false, message: `quanNon must be an integer from ${min} to ${max}` };
  }
  const emptyQuanIsGap = value('emptyQuanIsGap');
  if (typeof emptyQuanIsGap !== 'boolean') {
    return { ok: false, message: 'emptyQuanIsGap must be a boolean' };
  }
  const endWhen = value('endWhen');
  if (endWhen !== 'quan-squares-empty' && endWhen !== 'quan-pieces-captured') {
    return { ok: false, message: 'endWhen must be "quan-squares-empty" or "quan-pieces-captured"' };
  }
  const skipOrigin = value('skipOrigin');
  if (typeof skipOrigin !== 'boolean') {
    return { ok: false, message: 'skipOrigin must be a boolean' };
  }
  const plyLimit = value('plyLimit');
  if (!isIntegerIn(plyLimit, RULE_LIMITS.plyLimit.min, RULE_LIMITS.plyLimit.max)) {
    const { min, max } = RULE_LIMITS.plyLimit;
    return { ok: false, message: `plyLimit must be an integer from ${min} to ${max}` };
  }
  return {
    ok: true,
    rules: checked(Object.freeze({ quanValue, quanNon, emptyQuanIsGap, endWhen, skipOrigin, plyLimit })),
  };
}

/**
 * The full option set for trusted input (code, tests). Invalid options are a
 * programming error here, hence the throw; untrusted input goes through
 * `validateRules`.
 */
export function resolveRules(partial?: Partial<RuleOptions>): RuleOptions {
  const checked = validateRules(partial);
  if (!checked.ok) throw new RangeError(checked.message);
  return checked.rules;
}

export function sameRules(a: RuleOptions, b: RuleOptions): boolean {
  return OPTION_KEYS.every((key) => a[key] === b[key]);
}

function isIntegerIn(x: unknown, min: number, max: number): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;
}
