import { z } from 'zod';
import { seat } from './common.js';

const move = z.object({ square: z.number().int(), dir: z.union([z.literal(1), z.literal(-1)]) });

/** The engine's labels by the mover's win chance or points lost, whichever weighs more (see @oanquan/engine's move-judgement). */
export const moveLabel = z.enum(['best', 'good', 'inaccuracy', 'mistake', 'blunder']);
export type MoveLabel = z.infer<typeof moveLabel>;

/** Bounds on a final margin that the exact endgame solver proved (null: none that way); equal when exact. */
export const provedValue = z.object({ lower: z.number().int().nullable(), upper: z.number().int().nullable() });

/** One ply of a finished match as the engine sees it; values are from the mover's side, in points. */
export const plyAnalysis = z.object({
  /** From 1, as in the match record's moves. */
  ply: z.number().int().min(1),
  seat,
  /** Expected final margin before the move. */
  eval: z.number(),
  /** The mover's chance to win before the move, 0–1. */
  winChance: z.number(),
  best: move,
  /** R7.1 notation of the best move, from the mover's side. */
  bestNotation: z.string(),
  playedEval: z.number(),
  pointsLost: z.number(),
  /** The mover's win chance lost by the move played, 0–1: what the label judges, beside `pointsLost`. */
  chanceLost: z.number(),
  label: moveLabel,
  /** 0–100. */
  accuracy: z.number(),
  /** Within the endgame limit: what best play from both sides is proved to give the mover before the move. Absent when nothing was proved. */
  bestPlay: provedValue.optional(),
  /** True when the position was a proved win and the move played leaves a proved draw or loss. */
  throwsWin: z.boolean().optional(),
});
export type PlyAnalysis = z.infer<typeof plyAnalysis>;

export const analysisStatus = z.enum(['none', 'queued', 'running', 'done', 'failed']);
export type AnalysisStatus = z.infer<typeof analysisStatus>;

/**
 * GET and POST /api/matches/<id>/analysis. `none` until someone asks; then
 * queued, running (with `progress`), and done with `plies` and each seat's
 * accuracy (null for a seat that made no move). Computed once per match.
 */
export const analysisResponse = z.object({
  matchId: z.uuid(),
  status: analysisStatus,
  progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }),
  depth: z.number().int().nullable(),
  plies: z.array(plyAnalysis).nullable(),
  accuracy: z.tuple([z.number().nullable(), z.number().nullable()]).nullable(),
});
export type AnalysisResponse = z.infer<typeof analysisResponse>;
