import { z } from 'zod';
import { botLevel } from './common.js';
import { matchSummary } from './history.js';

/** Glicko-2, on the familiar scale (1500 ± 350 at the start). */
export const rating = z.object({
  rating: z.number(),
  deviation: z.number(),
  volatility: z.number(),
  /** Too few rated games for the rating to mean much yet. */
  provisional: z.boolean(),
});
export type Rating = z.infer<typeof rating>;

export const leaderboardEntry = z.object({
  id: z.uuid(),
  name: z.string(),
  rating: z.number(),
  deviation: z.number(),
  games: z.number().int(),
  /** Too few rated games yet: listed after the established players, marked. */
  provisional: z.boolean(),
});

/** GET /api/leaderboard: established players best first, then provisional ones best first. */
export const leaderboard = z.object({ players: z.array(leaderboardEntry) });
export type Leaderboard = z.infer<typeof leaderboard>;

const record = z.object({ wins: z.number().int(), losses: z.number().int(), draws: z.number().int() });

/** GET /api/players/<id>. */
export const playerProfile = z.object({
  id: z.uuid(),
  name: z.string(),
  /** Set (1–8) on the computer's own profile, null for a person. */
  botLevel: botLevel.nullable(),
  /** Whether the player kept an account (only accounts play rated games). */
  account: z.boolean(),
  rating,
  record,
  /** The record split by who moved first (the opener's winner): this player, or the opponent. */
  byFirstMove: z.object({ first: record, second: record }),
  /** The rating after each rated match, oldest first (the last 100). */
  ratingHistory: z.array(z.object({ at: z.string(), rating: z.number() })),
  recent: z.array(matchSummary),
});
export type PlayerProfile = z.infer<typeof playerProfile>;
