import type { z } from 'zod';
import { DELETED_PLAYER_NAME } from './deleted-player.js';
import { ErrorCode } from './error-codes.js';

/**
 * What shows nothing, or not what it is: default-ignorable characters
 * (joiners, variation selectors, Hangul fillers), format and control
 * characters, every space but the plain one, and the blank Braille pattern.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{C}\u2800]|(?! )\p{Z}/u;

/**
 * Combining marks one letter may carry, decomposed: Vietnamese needs two
 * (ự is u, horn, dot below), other scripts three; more only pile up into a
 * smear over the neighbouring text.
 */
export const MAX_MARKS_PER_LETTER = 3;

const MARK_RUN = /\p{M}+/gu;

export type NameProblem = typeof ErrorCode.NameInvisible | typeof ErrorCode.NameTooManyMarks | typeof ErrorCode.NameUncommonScript;

/**
 * The scripts Unicode recommends for identifiers (UAX #31, table 5), and
 * Common and Inherited. The others are in limited or historic use: nobody
 * here writes their name in Cherokee, but "ᎪᎠᎷᎥᏁ" reads as ADMIN.
 */
const EVERYDAY_LETTER = new RegExp(
  `[${['Common', 'Inherited', 'Arabic', 'Armenian', 'Bengali', 'Bopomofo', 'Cyrillic', 'Devanagari', 'Ethiopic', 'Georgian', 'Greek', 'Gujarati', 'Gurmukhi', 'Han', 'Hangul', 'Hebrew', 'Hiragana', 'Kannada', 'Katakana', 'Khmer', 'Lao', 'Latin', 'Malayalam', 'Myanmar', 'Oriya', 'Sinhala', 'Tamil', 'Telugu', 'Thaana', 'Thai', 'Tibetan']
    .map((script) => `\\p{Script=${script}}`)
    .join('')}]`,
  'u',
);

const LETTER = /\p{L}/gu;

/** Why a name (NFC, trimmed) cannot be shown to others as it is, or null if it can. */
export function nameProblem(name: string): NameProblem | null {
  if (INVISIBLE.test(name)) return ErrorCode.NameInvisible;
  const decomposed = name.normalize('NFD');
  if (/^\p{M}/u.test(decomposed)) return ErrorCode.NameTooManyMarks;
  for (const [run] of decomposed.matchAll(MARK_RUN)) {
    const marks = [...run];
    // The same mark twice on one letter looks like one: a way to make two names that look the same.
    if (marks.length > MAX_MARKS_PER_LETTER || new Set(marks).size < marks.length) return ErrorCode.NameTooManyMarks;
  }
  for (const [letter] of name.matchAll(LETTER)) if (!EVERYDAY_LETTER.test(letter)) return ErrorCode.NameUncommonScript;
  return null;
}

/** Scripts whose letters pass for each other's; one username keeps to one of them. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/**
 * A username mixing Latin, Cyrillic and Greek letters ("pаypal" with a
 * Cyrillic а) is made to pass for another, even one nobody has taken yet.
 */
export function mixesLookalikeScripts(username: string): boolean {
  return LOOKALIKE_SCRIPTS.filter((script) => script.test(username)).length > 1;
}

/** The forms of the deleted player's name, in either language: nobody may take one as their own display name. */
const DELETED_PLAYER_FORMS = new Set([DELETED_PLAYER_NAME, 'người chơi đã xoá', 'người chơi đã xóa']);

export function isDeletedPlayerName(name: string): boolean {
  return DELETED_PLAYER_FORMS.has(name.normalize('NFC').trim().replace(/ +/g, ' ').toLowerCase());
}

/** A display name may not pass for a closed account's. */
export function checkDisplayName(name: string, ctx: z.RefinementCtx): void {
  checkName(name, ctx);
  if (isDeletedPlayerName(name)) ctx.addIssue({ code: 'custom', message: 'the name closed accounts are shown under', params: { code: ErrorCode.NameReserved } });
}

const messages: Record<NameProblem, string> = {
  [ErrorCode.NameInvisible]: 'no invisible characters or spaces other than the plain one',
  [ErrorCode.NameTooManyMarks]: `at most ${MAX_MARKS_PER_LETTER} different accents on one letter, and none on nothing`,
  [ErrorCode.NameUncommonScript]: 'letters of scripts in everyday use only',
};

/**
 * A zod check of a name: a refusal names its error code in the issue's
 * params, which the server's edge answers instead of BAD_REQUEST.
 */
export function checkName(name: string, ctx: z.RefinementCtx): void {
  const problem = nameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: messages[problem], params: { code: problem } });
}

/** checkName, and one script of Latin, Cyrillic and Greek. */
export function checkUsername(username: string, ctx: z.RefinementCtx): void {
  checkName(username, ctx);
  if (mixesLookalikeScripts(username)) {
    ctx.addIssue({ code: 'custom', message: 'Latin, Cyrillic and Greek letters not mixed', params: { code: ErrorCode.UsernameMixedScripts } });
  }
}
