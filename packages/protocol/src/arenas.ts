import { z } from 'zod';
import { queuePool } from './queue.js';
import { ruleOptions, rulesChoice } from './rules-options.js';

export const arenaCode = z.string().regex(/^[A-Za-z0-9]{8,16}$/);

/** How long a private arena may last, in minutes, and how far ahead it may start. */
export const arenaLimits = { minMinutes: 10, maxMinutes: 180, maxDaysAhead: 7 } as const;

/** Standings go out a page at a time: a read and a push cost the same with ten players or a thousand. */
export const ARENA_PAGE_SIZE = 20;

/** Which page of the standings to read, from 1. */
const pageNumber = z.number().int().min(1).max(10_000);

/** GET /api/arenas/<code>?page=<n>. */
export const arenaPageQuery = z.object({ page: z.coerce.number().pipe(pageNumber).default(1) }).strict();

/**
 * POST /api/arenas: an account's private arena, reached only by its link.
 * Private arenas are casual: their players chose to meet (as in a friend room).
 */
export const createArenaRequest = z
  .object({
    pool: queuePool,
    rules: rulesChoice.default({ preset: 'classic' }),
    startsAt: z.iso.datetime(),
    minutes: z.number().int().min(arenaLimits.minMinutes).max(arenaLimits.maxMinutes),
  })
  .strict();
export type CreateArenaRequest = z.input<typeof createArenaRequest>;

/** Which schedule made an arena (its name on the page), or `private`. */
export const arenaKind = z.enum(['hourly', 'daily', 'private']);
export type ArenaKind = z.infer<typeof arenaKind>;

export const arenaPhase = z.enum(['upcoming', 'running', 'ending', 'finished']);
export type ArenaPhase = z.infer<typeof arenaPhase>;

export const arenaSummary = z.object({
  code: arenaCode,
  kind: arenaKind,
  pool: queuePool,
  rated: z.boolean(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  phase: arenaPhase,
  players: z.number().int(),
});
export type ArenaSummary = z.infer<typeof arenaSummary>;

/**
 * Why an active player who is not in a game waits, while the arena runs:
 * nobody else is active (`alone`); everyone else is in a game (`busy`); the
 * only one free is whom they just played, met again at `at` unless someone
 * else comes free first (`rematch`); or they are about to be paired (`pairing`).
 */
export const arenaWait = z.discriminatedUnion('reason', [
  z.object({ reason: z.enum(['alone', 'busy', 'pairing']) }),
  z.object({ reason: z.literal('rematch'), opponent: z.string(), at: z.iso.datetime() }),
]);
export type ArenaWait = z.infer<typeof arenaWait>;

/** One line of the standings. `points` holds each counted game in order: 4 is a doubled win (a streak), 2 a win, 1 a draw, 0 a loss. */
export const arenaStanding = z.object({
  rank: z.number().int(),
  id: z.uuid(),
  name: z.string(),
  rating: z.number().int(),
  score: z.number().int(),
  points: z.array(z.number().int()),
  onFire: z.boolean(),
  active: z.boolean(),
  /** The room of the game they are playing now. */
  playing: z.string().nullable(),
  /** Null while they play, are paused, or the arena is not running. */
  waiting: arenaWait.nullable(),
});
export type ArenaStanding = z.infer<typeof arenaStanding>;

/** A game of the arena: in play, or ended (linked to its replay). */
export const arenaGame = z.object({
  matchId: z.uuid(),
  roomCode: z.string(),
  players: z.tuple([z.uuid(), z.uuid()]),
  /** The players' names, which the page of standings shown may not hold. */
  names: z.tuple([z.string(), z.string()]),
  ended: z.boolean(),
  winner: z.number().int().nullable(),
});
export type ArenaGame = z.infer<typeof arenaGame>;

/**
 * GET /api/arenas/<code>?page=<n> and `arena:watch`: one page of the
 * standings (`players` tells how many there are) and the reader's own line;
 * the socket event `arena:standings` to everyone watching: the first page,
 * `me` null, at most once per tick and only when it changed.
 */
export const arenaView = arenaSummary.extend({
  rules: ruleOptions,
  /** The server's clock when this was made, so a countdown does not trust the client's. */
  now: z.iso.datetime(),
  page: z.number().int().min(1),
  /** At most ARENA_PAGE_SIZE lines, ranks (page - 1) * ARENA_PAGE_SIZE + 1 onwards. */
  standings: z.array(arenaStanding),
  /** The reader's own line, wherever it ranks; null for a push or someone who has not joined. */
  me: arenaStanding.nullable(),
  /** Some games in play, then the latest ended ones. */
  games: z.array(arenaGame),
});
export type ArenaView = z.infer<typeof arenaView>;

/** GET /api/arenas: scheduled arenas about to start or running, and recently finished. */
export const arenaList = z.object({ now: z.iso.datetime(), arenas: z.array(arenaSummary) });
export type ArenaList = z.infer<typeof arenaList>;

/** Client → server: follow an arena's standings (answered with the current view of that page) or stop. */
export const arenaWatchPayload = z.object({ code: arenaCode, page: pageNumber.optional() }).strict();

/** Server → a paired player: go to this room, the arena's next game. */
export const arenaPaired = z.object({ arena: arenaCode, roomCode: z.string(), matchId: z.uuid() });
export type ArenaPaired = z.infer<typeof arenaPaired>;
