import { z } from 'zod';
import { publicPlayer, seat, uuid } from './common.js';
import { challengesFromChoices } from './challenges-from.js';
import { matchResult, matchStatus, openerRound, playedMove, ratingChange } from './match.js';
import { timeControl } from './rooms.js';
import { ruleOptions } from './rules-options.js';

/**
 * GET /api/account/export: everything the site holds about the asker, as one
 * JSON document (docs/data-export.md describes every field). `format` names
 * this layout; a change that could break a reader of the file changes it.
 * Objects are strict, so a field the server adds without adding it here
 * fails the tests that read the file back.
 */
export const DATA_EXPORT_FORMAT = 'oanquan-data-export/1';

/** An instant, ISO 8601 in UTC. */
const at = z.iso.datetime();

const glicko = { rating: z.number(), deviation: z.number(), volatility: z.number() };

export const exportedProfile = z
  .object({
    id: uuid,
    name: z.string(),
    username: z.string().nullable(),
    account: z.boolean(),
    /** False for a guest who has not yet done anything kept: the site holds no row of theirs, only their signed token. */
    stored: z.boolean(),
    createdAt: at.nullable(),
    rating: z.object({ ...glicko, ratedGames: z.number().int() }).strict(),
    puzzleRating: z.object({ ...glicko, attempts: z.number().int(), solved: z.number().int(), updatedAt: at }).strict().nullable(),
    settings: z.object({ challengesFrom: z.enum(challengesFromChoices) }).strict(),
  })
  .strict();

export const exportedSession = z
  .object({ id: uuid, createdAt: at, lastSeenAt: at, expiresAt: at, revokedAt: at.nullable(), current: z.boolean() })
  .strict();

/** Another player as anyone sees them: their public name. */
const other = publicPlayer.strict();

export const exportedFollow = z.object({ player: other, since: at }).strict();

export const exportedQueueEntry = z.object({ pool: z.string(), rated: z.boolean(), joinedAt: at }).strict();

export const exportedChallenge = z
  .object({
    id: uuid,
    /** Made by the asker (to `other`, or open to anyone when null), or received from `other`. */
    direction: z.enum(['made', 'received']),
    other: other.nullable(),
    rules: ruleOptions,
    timeControl: timeControl.nullable(),
    rated: z.boolean(),
    createdAt: at,
    expiresAt: at.nullable(),
    /** The asker's address as stored for the per-address caps; only on challenges they made. */
    address: z.string().nullable(),
  })
  .strict();

export const exportedRoom = z
  .object({ code: z.string(), rules: ruleOptions, timeControl: timeControl.nullable(), rated: z.boolean(), createdAt: at })
  .strict();

export const exportedArena = z
  .object({
    code: z.string(),
    name: z.string(),
    startsAt: at,
    endsAt: at,
    /** Joined: when, with which rating, and whether still taking part; null for one the asker made and did not join. */
    joined: z.object({ at, rating: z.number(), active: z.boolean() }).strict().nullable(),
    madeByYou: z.boolean(),
  })
  .strict();

export const exportedAnalysisRequest = z.object({ matchId: uuid, status: z.string(), requestedAt: at }).strict();

export const exportedRatingChange = z.object({ matchId: uuid, at, ...ratingChange.shape }).strict();

export const exportedPuzzleAttempt = z
  .object({ puzzleId: uuid, at, solved: z.boolean(), ratingBefore: z.number(), ratingAfter: z.number() })
  .strict();

export const exportedMove = playedMove.extend({ at }).strict();

export const exportedGame = z
  .object({
    id: uuid,
    room: z.string(),
    /** 1 for a room's first match, then its rematches. */
    number: z.number().int(),
    arena: z.string().nullable(),
    status: matchStatus,
    rules: ruleOptions,
    timeControl: timeControl.nullable(),
    rated: z.boolean(),
    createdAt: at,
    startedAt: at.nullable(),
    endedAt: at.nullable(),
    players: z.tuple([other.nullable(), other.nullable()]),
    /** The asker's seat. */
    seat,
    first: seat.nullable(),
    result: matchResult.nullable(),
    /** What the match did to the asker's rating; null when it was not rated. */
    ratingChange: ratingChange.nullable(),
    /** Decided rock–paper–scissors rounds; a round still open is left out, as it is hidden in the room. */
    opener: z.array(openerRound),
    moves: z.array(exportedMove),
  })
  .strict();

export const dataExport = z
  .object({
    format: z.literal(DATA_EXPORT_FORMAT),
    exportedAt: at,
    profile: exportedProfile,
    sessions: z.array(exportedSession),
    following: z.array(exportedFollow),
    followers: z.object({ count: z.number().int() }).strict(),
    blocks: z.array(exportedFollow),
    queue: exportedQueueEntry.nullable(),
    challenges: z.array(exportedChallenge),
    rooms: z.array(exportedRoom),
    arenas: z.array(exportedArena),
    analysisRequests: z.array(exportedAnalysisRequest),
    ratingHistory: z.array(exportedRatingChange),
    puzzleAttempts: z.array(exportedPuzzleAttempt),
    games: z.array(exportedGame),
  })
  .strict();
export type DataExport = z.infer<typeof dataExport>;
export type ExportedProfile = z.infer<typeof exportedProfile>;
export type ExportedSession = z.infer<typeof exportedSession>;
export type ExportedFollow = z.infer<typeof exportedFollow>;
export type ExportedChallenge = z.infer<typeof exportedChallenge>;
export type ExportedRoom = z.infer<typeof exportedRoom>;
export type ExportedArena = z.infer<typeof exportedArena>;
export type ExportedGame = z.infer<typeof exportedGame>;
