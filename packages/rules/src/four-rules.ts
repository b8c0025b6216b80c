// R10.2, R10.8, R10.9: the rule options of the four-player game: R6's
// options plus `players: 4` and, for two teams, `teams: 2`, all stored
// together; `plyLimit` not given means 800 (R10.6, R10.9).

import { validateRules, type RuleOptions } from './rule-options.js';

export interface FourRuleOptions extends RuleOptions {
  readonly players: 4;
  /** R10.8: players 0 and 2 against 1 and 3. Absent: free for all. */
  readonly teams?: 2;
}

/** The options a game of either size is played under. */
export type GameRules = RuleOptions | FourRuleOptions;

/** What a setup may give: missing options take their defaults. */
export type FourRulesInput = Partial<RuleOptions> & { readonly players: 4; readonly teams?: 2 };

/** R10.6: the move limit of a four-player game when none is given. */
export const FOUR_PLY_LIMIT = 800;

export type FourRulesValidation =
  | { readonly ok: true; readonly rules: FourRuleOptions }
  | { readonly ok: false; readonly message: string };

export type GameRulesValidation =
  | { readonly ok: true; readonly rules: GameRules }
  | { readonly ok: false; readonly message: string };

/** Option sets made here, frozen: checking one again is skipped (see rule-options.ts). */
const CHECKED = new WeakSet<FourRuleOptions>();

export function isFourRules(rules: GameRules): rules is FourRuleOptions {
  return (rules as Partial<FourRuleOptions>).players === 4;
}

/**
 * Checks untrusted four-player options: `players` must be 4, `teams` absent
 * or 2, the others as `validateRules` checks them. The option ranges are
 * R6's, which R10 does not change: `quanNon` stays at most 50 although a
 * square can hold more of the 100 dân.
 */
export function validateFourRules(input: unknown): FourRulesValidation {
  if (CHECKED.has(input as FourRuleOptions)) return { ok: true, rules: input as FourRuleOptions };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, message: 'rules must be an object' };
  }
  const { players, teams, ...rest } = input as Record<string, unknown>;
  if (players !== 4) return { ok: false, message: 'players must be 4' };
  if (teams !== undefined && teams !== 2) return { ok: false, message: 'teams must be 2 or absent' };
  const base = validateRules({ ...rest, plyLimit: rest.plyLimit ?? FOUR_PLY_LIMIT });
  if (!base.ok) return base;
  const rules: FourRuleOptions = Object.freeze(teams === 2 ? { ...base.rules, players: 4, teams: 2 } : { ...base.rules, players: 4 });
  CHECKED.add(rules);
  return { ok: true, rules };
}

/**
 * Options of either game: `players: 4` (R10.2) asks for the four-player
 * game; `players: 2` or none, for R1–R9. `teams` with two players is refused:
 * two teams on the classic board are an arrangement of the match, not a rule
 * option (R10.1).
 */
export function validateGameRules(input: unknown): GameRulesValidation {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const { players, ...rest } = input as Record<string, unknown>;
    if (players === 4) return validateFourRules(input);
    if (players !== undefined && players !== 2) return { ok: false, message: 'players must be 2 or 4' };
    if ('teams' in rest) {
      return { ok: false, message: 'teams is a four-player option; two teams on the classic board play the two-player game (R10.1)' };
    }
    if (players !== undefined) return validateRules(rest);
  }
  return validateRules(input);
}

/** Four-player options for trusted input (code, tests); throws on invalid ones like `resolveRules`. */
export function resolveFourRules(input: FourRulesInput): FourRuleOptions {
  const checked = validateFourRules(input);
  if (!checked.ok) throw new RangeError(checked.message);
  return checked.rules;
}
