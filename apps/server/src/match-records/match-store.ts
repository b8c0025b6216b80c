import { formatMove, type Player, type Position, type RuleOptions } from '@oanquan/rules';
import {
  ErrorCode,
  type Glicko,
  type Hand,
  type MatchEvent,
  type MatchEventEnvelope,
  type MatchSnapshot,
  type MatchResult,
  type OpenerRound,
  type PlayedMove,
  type RatingChanges,
  type Seat,
} from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { timeControlOf } from '../rooms/room-service.js';
import { clocksOnWire } from './clock.js';
import { matchRowOf, matchRowSql, type MatchRow } from './match-row.js';

export type { Tx } from '../db/database.js';

export { matchInclude, type MatchRow } from './match-row.js';
export type MoveRow = { ply: number; square: number; dir: number; remainingMs: number | null };

/**
 * Takes the match's row lock for the rest of the transaction, so changes to
 * one match are serialized across server processes too, and every read after
 * it sees the latest committed state. The version compare-and-set in
 * `commitEvents` stays as the last guard.
 */
export async function lockMatch(tx: Tx, matchId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM match WHERE id = ${matchId}::uuid FOR UPDATE`;
}

/**
 * Holds the player's row (as a foreign key's check would) for the rest of
 * the transaction, so the guest cleanup, which takes the row before it
 * deletes, either skips this player or has already removed them, and an
 * account closing (which takes the row for update) either waits for this
 * seat and sees it, or has closed the account first: false then.
 */
export async function holdPlayer(tx: Tx, playerId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM player WHERE id = ${playerId}::uuid AND closed_at IS NULL FOR KEY SHARE`;
  return rows.length === 1;
}

/** The row with its room, seats and rounds in one statement (see match-row.ts), as the include would read it. */
export async function loadMatch(tx: Tx, matchId: string): Promise<MatchRow> {
  const [match] = await tx.$queryRawUnsafe<MatchRow[]>(matchRowSql, matchId);
  if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
  return matchRowOf(match);
}

export async function loadMoves(tx: Tx, matchId: string): Promise<MoveRow[]> {
  return tx.move.findMany({ where: { matchId }, orderBy: { ply: 'asc' }, select: { ply: true, square: true, dir: true, remainingMs: true } });
}

export function seatOf(match: { player0Id: string | null; player1Id: string | null }, playerId: string): Seat | null {
  if (match.player0Id === playerId) return 0;
  if (match.player1Id === playerId) return 1;
  return null;
}

export function rulesOf(match: Pick<MatchRow, 'rules'>): RuleOptions {
  return match.rules as unknown as RuleOptions;
}

export function positionOf(match: MatchRow): Position {
  return match.position as unknown as Position;
}

/** The mover of each ply follows from who moved first; R7.1 notation is from the mover's side. */
export function playedMoves(first: Seat, moves: MoveRow[]): PlayedMove[] {
  return moves.map((move) => {
    const seat = ((first + move.ply - 1) % 2) as Player;
    const dir = move.dir === 1 ? 1 : -1;
    return { ply: move.ply, seat, square: move.square, dir, notation: formatMove({ square: move.square, dir }, seat), remainingMs: move.remainingMs };
  });
}

/** Whose clock runs: the mover's, while the match is in play. */
export function runningSeat(match: { status: string; position: unknown }): Seat | null {
  return match.status === 'playing' ? (match.position as Position).toMove : null;
}

export function resultOf(match: MatchRow): MatchResult | null {
  if (match.status !== 'ended' || !match.endReason) return null;
  return {
    winner: match.winner === 0 || match.winner === 1 ? match.winner : null,
    reason: match.endReason as MatchResult['reason'],
    score: match.score0 === null || match.score1 === null ? null : [match.score0, match.score1],
  };
}

/** What a rated match did to each seat's rating, as stored when it ended. */
export function ratingChangesOf(match: { ratingChanges: Prisma.JsonValue }): RatingChanges {
  return (match.ratingChanges as RatingChanges | null) ?? null;
}

export function decidedRounds(match: MatchRow): OpenerRound[] {
  return match.rounds
    .filter((round) => round.choice0 !== null && round.choice1 !== null)
    .map((round) => ({
      round: round.round,
      choices: [round.choice0 as Hand, round.choice1 as Hand],
      winner: round.winner === 0 || round.winner === 1 ? round.winner : null,
    }));
}

/** The round waiting for a choice, if one is open. */
export function openRound(match: MatchRow) {
  const last = match.rounds.at(-1);
  return last && (last.choice0 === null || last.choice1 === null) ? last : undefined;
}

/** When the other player must have chosen, once one has chosen in the open round. */
export function openerDeadline(match: MatchRow, timeoutMs: number): Date | null {
  const open = openRound(match);
  return match.status === 'opener' && open ? new Date(open.createdAt.getTime() + timeoutMs) : null;
}

export function snapshotOf(match: MatchRow, moves: MoveRow[], now: Date, openerTimeoutMs: number): MatchSnapshot {
  const open = openRound(match);
  return {
    matchId: match.id,
    roomCode: match.room.code,
    number: match.number,
    version: match.version,
    status: match.status,
    rules: rulesOf(match),
    timeControl: timeControlOf(match.room),
    seats: [match.player0, match.player1],
    opener: {
      rounds: decidedRounds(match),
      chosen: [open?.choice0 != null, open?.choice1 != null],
      deadline: openerDeadline(match, openerTimeoutMs)?.toISOString() ?? null,
    },
    first: match.first === 0 || match.first === 1 ? match.first : null,
    moves: match.first === 0 || match.first === 1 ? playedMoves(match.first, moves) : [],
    position: positionOf(match),
    clocks: clocksOnWire(match, match.room, runningSeat(match), now),
    firstMoveDeadline: match.status === 'playing' && positionOf(match).ply === 0 ? (match.firstMoveDeadline?.toISOString() ?? null) : null,
    result: resultOf(match),
    ratings: ratingChangesOf(match),
    rematch: { offered: [match.rematch0, match.rematch1], matchId: match.nextMatchId },
    pairing: pairingOf(match),
  };
}

/** Where a rated pairing stands (see rated-pairing.ts): which game this is and, on the return game, how the first ended. */
function pairingOf(match: MatchRow): MatchSnapshot['pairing'] {
  if (match.pairGame === 1) return { game: 1, firstGame: null };
  if (match.pairGame === 2 && match.pairStart) {
    const winner = match.pairFirstWinner === 0 || match.pairFirstWinner === 1 ? match.pairFirstWinner : null;
    return { game: 2, firstGame: { winner, before: match.pairStart as unknown as [Glicko, Glicko] } };
  }
  return null;
}

/**
 * Appends events to a match and advances its version in the caller's
 * transaction. The update only matches the version the caller read, so a
 * concurrent change (another process) makes this one fail as stale.
 */
export async function commitEvents(
  tx: Tx,
  match: { id: string; version: number },
  events: MatchEvent[],
  update: Prisma.MatchUpdateManyMutationInput = {},
): Promise<MatchEventEnvelope[]> {
  return commitEnvelopes(tx, match, envelopesOf(match, events, new Date()), update);
}

/** `commitEvents` for envelopes the caller made, with instants of its own (a move's: see transaction-path.ts). */
export async function commitEnvelopes(
  tx: Tx,
  match: { id: string; version: number },
  envelopes: MatchEventEnvelope[],
  update: Prisma.MatchUpdateManyMutationInput = {},
): Promise<MatchEventEnvelope[]> {
  const changed = await tx.match.updateMany({
    where: { id: match.id, version: match.version },
    data: { ...update, version: match.version + envelopes.length },
  });
  if (changed.count !== 1) throw new ServiceError(ErrorCode.StaleVersion, 'The match changed meanwhile; sync and try again', 409);
  await tx.matchEvent.createMany({
    data: envelopes.map((envelope) => ({ matchId: match.id, version: envelope.version, payload: envelope, createdAt: new Date(envelope.at) })),
  });
  return envelopes;
}

/** The events as broadcast and stored, numbered on from the version they follow. */
export function envelopesOf(match: { id: string; version: number }, events: MatchEvent[], at: Date): MatchEventEnvelope[] {
  return events.map((event, i) => ({ matchId: match.id, version: match.version + i + 1, at: at.toISOString(), event }));
}
