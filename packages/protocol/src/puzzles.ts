import { z } from 'zod';
import { uuid } from './common.js';
import { position } from './match.js';
import { ruleOptions } from './rules-options.js';

const puzzleMove = z.object({ square: z.number().int().min(0).max(11), dir: z.union([z.literal(1), z.literal(-1)]) }).strict();
export type PuzzleMove = z.infer<typeof puzzleMove>;

/** What a puzzle is about (see @oanquan/engine's puzzles/themes.ts). */
export const puzzleTheme = z.enum(['capture-chain', 'quan', 'refill', 'endgame', 'sweep']);
export type PuzzleTheme = z.infer<typeof puzzleTheme>;

/** A solver's puzzle rating (Glicko-2), apart from their game rating; `provisional` while it says little (few tries). */
export const puzzleSolver = z.object({
  rating: z.number(),
  deviation: z.number(),
  provisional: z.boolean(),
  attempts: z.number().int().min(0),
  solved: z.number().int().min(0),
});
export type PuzzleSolver = z.infer<typeof puzzleSolver>;

/**
 * GET /api/puzzles/next, /api/puzzles/daily, /api/puzzles/<id>: the position
 * and how many moves the solver must find, never the line. `solver` is the
 * asker's puzzle rating (null for someone who never tried one); `tried` says
 * whether they already tried this puzzle (a second try is not rated);
 * `rated` whether the asker's try would be rated: an account's first try
 * (a guest's tries never are).
 */
export const puzzleView = z.object({
  id: uuid,
  rules: ruleOptions,
  position,
  themes: z.array(puzzleTheme),
  rating: z.number(),
  solverMoves: z.number().int().min(1),
  attempts: z.number().int().min(0),
  solved: z.number().int().min(0),
  /** The UTC day it is the daily puzzle of (YYYY-MM-DD), when asked as such. */
  day: z.string().nullable(),
  solver: puzzleSolver.nullable(),
  tried: z.boolean(),
  rated: z.boolean(),
});
export type PuzzleView = z.infer<typeof puzzleView>;

/**
 * POST /api/puzzles/<id>/attempts: every solver move so far, from the
 * puzzle's position (the opponent's replies come from the server). The
 * server checks them against the stored line.
 */
export const puzzleAttemptRequest = z.object({ moves: z.array(puzzleMove).min(1).max(8) }).strict();
export type PuzzleAttemptRequest = z.infer<typeof puzzleAttemptRequest>;

const ratingChange = z.object({ before: z.number(), after: z.number() });
/** The solver's change, and whether their rating was provisional before and after it. */
const solverChange = ratingChange.extend({ provisionalBefore: z.boolean(), provisionalAfter: z.boolean() });

/**
 * `continue`: right so far; `reply` is the opponent's answer, and the next
 * solver move is due. `solved` or `failed`: the whole line, the rating
 * changes when this was the solver's first try at the puzzle (else null),
 * and the puzzle's counts of rated tries and solutions with this one.
 */
export const puzzleAttemptResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('continue'), reply: puzzleMove }),
  z.object({
    status: z.enum(['solved', 'failed']),
    line: z.array(puzzleMove),
    solver: solverChange.nullable(),
    puzzle: ratingChange.nullable(),
    attempts: z.number().int().min(0),
    solved: z.number().int().min(0),
  }),
]);
export type PuzzleAttemptResponse = z.infer<typeof puzzleAttemptResponse>;
