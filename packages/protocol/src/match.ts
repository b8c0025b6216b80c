import type { GameResult, Position } from '@oanquan/rules';
import { z } from 'zod';
import { publicPlayer, seat } from './common.js';
import type { PackedMove, WireEnvelope } from './moved.js';
import { timeControl } from './rooms.js';
import { ruleOptions } from './rules-options.js';

export const hand = z.enum(['rock', 'paper', 'scissors']);
export type Hand = z.infer<typeof hand>;

export const matchStatus = z.enum(['waiting', 'opener', 'playing', 'ended']);
export type MatchStatus = z.infer<typeof matchStatus>;

/** The rules' reasons (R4, R5) and the server's own (R5.4). */
export const endReason = z.enum(['quan-gone', 'no-refill', 'ply-limit', 'repetition', 'resign', 'timeout', 'abandon', 'abort']);
export type EndReason = z.infer<typeof endReason>;

/** Readonly, as the rules package hands its values out. */
const pair = <T extends z.ZodType>(item: T) => z.tuple([item, item]).readonly();

const capturedStock = z.object({ dan: z.number().int(), quan: z.number().int() });
const gameResult = z.object({
  reason: z.enum(['quan-gone', 'no-refill', 'ply-limit', 'repetition']),
  score: pair(z.number().int()),
  winner: seat.nullable(),
}) satisfies z.ZodType<GameResult>;

/** R8's position, as the rules package makes it. */
export const position = z.object({
  squares: z.array(z.number().int().min(0)).length(12).readonly(),
  quan: pair(z.boolean()),
  captured: pair(capturedStock),
  debt: pair(z.number().int()),
  toMove: seat,
  ply: z.number().int().min(0),
  status: z.enum(['playing', 'ended']),
  result: gameResult.nullable(),
}) satisfies z.ZodType<Position>;

export const matchResult = z.object({ winner: seat.nullable(), reason: endReason, score: pair(z.number().int()).nullable() });
export type MatchResult = z.infer<typeof matchResult>;

/** A rated match's effect on one player's Glicko-2 rating (familiar scale). */
export const ratingChange = z.object({ before: z.number(), after: z.number() });
export type RatingChange = z.infer<typeof ratingChange>;

/** Both seats' rating changes, once a rated match has been rated; null when it was not. */
export const ratingChanges = pair(ratingChange).nullable();
export type RatingChanges = z.infer<typeof ratingChanges>;

export const openerRound = z.object({ round: z.number().int().min(1), choices: pair(hand), winner: seat.nullable() });
export type OpenerRound = z.infer<typeof openerRound>;

/**
 * Clocks of a timed match: each seat's remaining time as of `asOf`; the
 * `running` seat's clock has been counting down since then, or, when
 * `startsAt` is given, stands until that instant (the sowing allowance of the
 * move that gave them the turn) and counts down from it.
 */
export const clocks = z.object({
  remainingMs: pair(z.number().int()),
  running: seat.nullable(),
  asOf: z.string(),
  startsAt: z.string().optional(),
});
export type Clocks = z.infer<typeof clocks>;

const square = z.number().int().min(0).max(11);
const direction = z.union([z.literal(1), z.literal(-1)]);

export const playedMove = z.object({
  ply: z.number().int().min(1),
  seat,
  square,
  dir: direction,
  /** R7.1, from the mover's side. */
  notation: z.string(),
  /** The mover's remaining time after the move (increment included); null without a time control. */
  remainingMs: z.number().int().nullable(),
});
export type PlayedMove = z.infer<typeof playedMove>;

/** What happened to a match, one version at a time. */
export const matchEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('seated'), seat, player: publicPlayer }),
  /**
   * Somebody chose a hand; what they chose stays hidden until both have. On
   * the first choice of a round, `deadline` is when the other must have chosen.
   */
  z.object({ type: z.literal('opener-chosen'), seat, round: z.number().int().min(1), deadline: z.string().nullable() }),
  z.object({ type: z.literal('opener-round'), ...openerRound.shape }),
  /** The other did not choose in time: the one who chose wins the toss. */
  z.object({ type: z.literal('opener-forfeit'), round: z.number().int().min(1), winner: seat }),
  /**
   * The opener is decided. `first` must move by `firstMoveDeadline` or the
   * match is aborted; no clock runs before that first move.
   */
  z.object({ type: z.literal('started'), first: seat, clocks: clocks.nullable(), firstMoveDeadline: z.string() }),
  /**
   * A move: where and which way, and the clocks after it. The sowing, the
   * position and the move as the match lists it follow from the rules
   * (`followMove` in `@oanquan/protocol/moved`); on the wire it travels
   * packed (`packedMove`).
   */
  z.object({ type: z.literal('moved'), square, dir: direction, clocks: clocks.nullable() }),
  z.object({ type: z.literal('ended'), result: matchResult, ratings: ratingChanges }),
  z.object({ type: z.literal('rematch-offered'), seat }),
  /** Both want a rematch: it is this new match of the same room (opener first). */
  z.object({ type: z.literal('rematch'), matchId: z.uuid() }),
  /**
   * The whole service was down and nobody could play: the match's clocks
   * and deadlines moved on by `creditMs`. They replace the client's, as a
   * snapshot would show them now (null where the match has none).
   */
  z.object({
    type: z.literal('outage-credited'),
    creditMs: z.number().int().min(0),
    clocks: clocks.nullable(),
    firstMoveDeadline: z.string().nullable(),
    openerDeadline: z.string().nullable(),
  }),
]);
export type MatchEvent = z.infer<typeof matchEvent>;

/** Server → room: `match:event`. Clients apply them in version order. */
export const matchEventEnvelope = z.object({
  matchId: z.uuid(),
  version: z.number().int().min(1),
  at: z.string(),
  event: matchEvent,
});
export type MatchEventEnvelope = z.infer<typeof matchEventEnvelope>;

const instantMs = z.number().int();
/** `PackedClocks` of moved.ts: both remaining times, the running seat, `asOf` after `at` and `startsAt` after `asOf` in ms. */
const packedClocks = z.union([
  z.tuple([z.number().int(), z.number().int(), seat.nullable(), z.number().int()]).readonly(),
  z.tuple([z.number().int(), z.number().int(), seat.nullable(), z.number().int(), z.number().int()]).readonly(),
]);
/** A `moved` envelope as `match:event` and `sync` carry it (moved.ts): [matchId, version, at in ms since the epoch, square, dir, clocks]. */
export const packedMove = z.tuple([z.uuid(), z.number().int().min(1), instantMs, square, direction, packedClocks.nullable()]).readonly() satisfies z.ZodType<PackedMove>;
/** What `match:event` and `sync` carry: a move packed, any other event as its envelope. */
export const wireEnvelope = z.union([packedMove, matchEventEnvelope]) satisfies z.ZodType<WireEnvelope>;

/** Everything a client needs to draw a match from scratch. */
export const matchSnapshot = z.object({
  matchId: z.uuid(),
  roomCode: z.string(),
  number: z.number().int().min(1),
  version: z.number().int().min(0),
  status: matchStatus,
  rules: ruleOptions,
  timeControl: timeControl.nullable(),
  seats: pair(publicPlayer.nullable()),
  opener: z.object({ rounds: z.array(openerRound), chosen: pair(z.boolean()), deadline: z.string().nullable() }),
  first: seat.nullable(),
  moves: z.array(playedMove),
  position,
  clocks: clocks.nullable(),
  /** While the first move is awaited: by when it must come, or the match is aborted. */
  firstMoveDeadline: z.string().nullable(),
  result: matchResult.nullable(),
  ratings: ratingChanges,
  rematch: z.object({ offered: pair(z.boolean()), matchId: z.uuid().nullable() }),
  /**
   * A rated match is one game of a pairing of two with the first move
   * swapped: `game` 1 (the opener decides who starts) or 2 (the return game,
   * started by the other player), and on game 2 how game 1 ended and both
   * seats' Glicko-2 states before it: game 2's end rates the pair from them
   * as one period (`returnGameStakes`). Null outside pairings.
   */
  pairing: z
    .object({
      game: z.union([z.literal(1), z.literal(2)]),
      firstGame: z.object({ winner: seat.nullable(), before: pair(z.object({ rating: z.number(), deviation: z.number(), volatility: z.number() })) }).nullable(),
    })
    .nullable(),
});
export type MatchSnapshot = z.infer<typeof matchSnapshot>;
