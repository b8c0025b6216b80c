import { z } from 'zod';
import { publicPlayer, seat } from './common.js';
import { matchResult, matchStatus, openerRound, playedMove, ratingChanges } from './match.js';
import { timeControl } from './rooms.js';
import { ruleOptions } from './rules-options.js';

/** One line of GET /api/matches. */
export const matchSummary = z.object({
  id: z.uuid(),
  roomCode: z.string(),
  status: matchStatus,
  players: z.tuple([publicPlayer.nullable(), publicPlayer.nullable()]),
  timeControl: timeControl.nullable(),
  rated: z.boolean(),
  result: matchResult.nullable(),
  plies: z.number().int(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type MatchSummary = z.infer<typeof matchSummary>;

/** GET /api/matches?status=finished|live&player=<id>&limit=<n>&before=<cursor>. Newest first. */
export const matchListQuery = z
  .object({
    status: z.enum(['finished', 'live']).default('finished'),
    player: z.uuid().optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    /** The `next` of the previous page. */
    before: z.string().min(1).max(200).optional(),
    /** Only rated (`true`) or only casual (`false`) matches. */
    rated: z.enum(['true', 'false']).transform((value) => value === 'true').optional(),
    /** Only the matches `player` won, lost or drew (finished ones only). */
    result: z.enum(['win', 'loss', 'draw']).optional(),
  })
  .strict()
  .refine((query) => query.result === undefined || query.player !== undefined, { path: ['result'], message: 'needs a player' });
export type MatchListQuery = z.input<typeof matchListQuery>;
export type MatchListParams = z.output<typeof matchListQuery>;

export const matchList = z.object({ matches: z.array(matchSummary), next: z.string().nullable() });
export type MatchList = z.infer<typeof matchList>;

/** GET /api/matches/<id>: everything needed to review a match. */
export const matchRecord = z.object({
  id: z.uuid(),
  roomCode: z.string(),
  number: z.number().int(),
  status: matchStatus,
  rules: ruleOptions,
  timeControl: timeControl.nullable(),
  rated: z.boolean(),
  players: z.tuple([publicPlayer.nullable(), publicPlayer.nullable()]),
  first: seat.nullable(),
  opener: z.array(openerRound.extend({ at: z.string() })),
  /**
   * `at`: when the mover's clock counted the move; `clockStartsAt`: when the
   * next mover's clock started after it (the move's commit plus its sowing
   * allowance), null without a time control or after the last move.
   */
  moves: z.array(playedMove.extend({ at: z.string(), clockStartsAt: z.string().nullable() })),
  result: matchResult.nullable(),
  ratings: ratingChanges,
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type MatchRecord = z.infer<typeof matchRecord>;


