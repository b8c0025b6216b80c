import { randomUUID } from 'node:crypto';
import type { Player, State } from '@oanquan/rules';
import { ErrorCode, type ClientPayload, type Hand, type MatchEvent, type MatchEventEnvelope, type MatchSnapshot, type PublicPlayer } from '@oanquan/protocol';
import type { Tx } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { GameCache } from '../live/game-cache.js';
import { commitEnvelopes, commitEvents, envelopesOf, loadMatch, loadMoves, lockMatch, positionOf, rulesOf, snapshotOf, type MatchRow, type MoveRow } from '../match-records/match-store.js';
import { rateEndedMatch } from '../ratings/rating-service.js';
import { onlyCreditsSince } from './credits-since.js';
import { requireSeat, unchanged, type Decision, type MatchUpdate } from './decision.js';
import { rated } from './match-end.js';
import { startedLater } from './move-commit.js';
import { decideMove } from './move-decision.js';
import { writeRound } from './opener-commit.js';
import { decideForfeit, decideHand } from './opener.js';
import type { RefereeState } from './referee-state.js';
import { insertRematch, rematchWithinPairLimit } from './rematch-commit.js';
import { returnGameAfter } from './return-game.js';
import { decideRematch } from './rematch.js';
import { TransactionGate } from './transaction-gate.js';

/** Changes waiting for a transaction before more are refused as BUSY: a burst of a thousand openers still waits its turn. */
const MAX_TRANSACTIONS_WAITING = 2000;

/** A committed move (or the earlier outcome of its move id): no envelopes when nothing changed. */
export interface MoveOutcome {
  version: number;
  envelopes: MatchEventEnvelope[];
  match: MatchRow;
}

/**
 * The colder way to store a decision: under the match's row lock, in one
 * transaction, decided from the rows themselves. Every change that is not a
 * move, a hand or a rematch goes this way, and those three too whenever the
 * one statement cannot tell (see statement-path.ts). An ending is rated here.
 */
export class TransactionPath {
  /**
   * A few transactions at a time: fewer than the database client's pool on
   * PostgreSQL, which the reads outside them also use; one on PGlite, which
   * runs one at a time anyway.
   */
  private readonly transactions: TransactionGate;

  constructor(private readonly state: RefereeState) {
    this.transactions = new TransactionGate(state.db.kind === 'pglite' ? 1 : 8, MAX_TRANSACTIONS_WAITING);
  }

  /**
   * The common shape of a change: in the match's queue and one transaction,
   * decide the events from the current row, commit them with the version
   * compare-and-set, then publish. Another process may change the match
   * between our read and our write; the decision is then made again.
   */
  async change<R>(matchId: string, decide: (tx: Tx, match: MatchRow) => Promise<Decision<R>> | Decision<R>): Promise<{ result: R; snapshot: MatchSnapshot }> {
    const { db, games, snapshots, queue, times } = this.state;
    await this.state.settled();
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await queue.run(matchId, () =>
          this.transactions.run(() => db.prisma.$transaction(async (tx) => {
            await lockMatch(tx, matchId);
            const match = await loadMatch(tx, matchId);
            const decision = await decide(tx, match);
            const rating = await rateIfEnded(tx, match, decision.events, this.state.now(), times.firstMoveTimeoutMs);
            const envelopes = rating.events.length ? await commitEvents(tx, match, rating.events, { ...decision.update, ...rating.update }) : [];
            const after = envelopes.length ? await loadMatch(tx, matchId) : match;
            // No move is made before play: joining and the opener spare the read.
            const moves = match.status === 'waiting' || match.status === 'opener' ? [] : await loadMoves(tx, matchId);
            return { result: decision.result, envelopes, after, moves, snapshot: snapshotOf(after, moves, this.state.now(), times.openerTimeoutMs) };
          })),
        );
        if (outcome.envelopes.length && outcome.after.status === 'playing') games.set(outcome.after, stateOf(outcome.after, outcome.moves));
        await this.state.committed(outcome.after, outcome.envelopes);
        snapshots.set(outcome.after, outcome.moves);
        return outcome;
      } catch (error) {
        const conflict = (error instanceof ServiceError && error.code === ErrorCode.StaleVersion) || isUniqueViolation(error);
        if (!conflict || attempt === 3) throw busyIfSaturated(error);
      }
    }
  }

  /** A hand of the opener; one chosen past the round's deadline forfeits instead. */
  async hand(player: PublicPlayer, matchId: string, choice: Hand): Promise<MatchSnapshot> {
    const { snapshot } = await this.change(matchId, async (tx, match): Promise<Decision<null>> => {
      const now = this.state.now();
      const decided = decideHand(match, requireSeat(match, player.id), choice, now, this.state.times);
      const stored = decided === 'lapsed' ? decideForfeit(match, now, this.state.times)! : decided;
      await writeRound(tx, stored.round, stored.opened);
      return { result: null, events: stored.events, update: stored.update };
    });
    return snapshot;
  }

  /** The forfeit of an opener whose round is past its deadline; a no-op before. */
  async forfeit(matchId: string): Promise<void> {
    await this.change(matchId, async (tx, match): Promise<Decision<null>> => {
      const decided = decideForfeit(match, this.state.now(), this.state.times);
      if (!decided) return unchanged(null);
      await writeRound(tx, decided.round, decided.opened);
      return { result: null, events: decided.events, update: decided.update };
    });
  }

  /** An offer, or an acceptance with the new match inserted in the same transaction. */
  async rematch(player: PublicPlayer, matchId: string): Promise<{ created: MatchRow | null; version: number }> {
    const { result: created, snapshot } = await this.change(matchId, async (tx, match): Promise<Decision<MatchRow | null>> => {
      const now = this.state.now();
      const decided = decideRematch(match, requireSeat(match, player.id), randomUUID(), now);
      if (!decided) return unchanged(null);
      const created = decided.created && (await rematchWithinPairLimit(tx, decided.created, now));
      if (created) await insertRematch(tx, created);
      return { result: created, events: decided.events, update: decided.update };
    });
    return { created, version: snapshot.version };
  }

  /** A move from the rows themselves: a move id seen before answers its earlier outcome, and a version behind only by outage credits still counts. */
  async move(player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<MoveOutcome> {
    const { matchId, moveId } = payload;
    let outcome: MoveOutcome & { after?: State };
    try {
      outcome = await this.transactions.run(() => this.state.db.prisma.$transaction(async (tx) => {
        await lockMatch(tx, matchId);
        const match = await loadMatch(tx, matchId);
        const earlier = await tx.move.findUnique({ where: { matchId_moveId: { matchId, moveId } } });
        if (earlier) {
          if (earlier.playerId !== player.id) throw new ServiceError(ErrorCode.BadRequest, 'That move id is taken');
          return { version: earlier.version, envelopes: [], match };
        }
        const seen = payload.version < match.version && (await onlyCreditsSince(tx, matchId, payload.version)) ? match.version : payload.version;
        const decided = decideMove(match, await this.gameOf(tx, match), player, { ...payload, version: seen }, receivedAt, this.state.now());
        const rating = await rateIfEnded(tx, match, decided.events, decided.now, this.state.times.firstMoveTimeoutMs);
        const version = match.version + rating.events.length;
        const { record } = decided;
        await tx.move.create({
          data: { matchId, ply: record.ply, moveId, playerId: player.id, square: record.square, dir: record.dir, version, remainingMs: record.remainingMs, createdAt: record.movedAt },
        });
        // As on the statement path (move-commit.ts, docs/protocol.md): the next clock starts from the commit, not from the
        // decision, with the event's instants; the rating and the writes took the time between. An ending's instants stay the decision's.
        const lateMs = Math.max(0, this.state.now().getTime() - decided.now.getTime());
        const decidedNext = { ...decided.next, ...rating.update, version } as MatchRow;
        const { next, envelopes: made } = startedLater(decidedNext, envelopesOf(match, rating.events, decided.now), lateMs);
        const clock = 'turnStartedAt' in decided.update ? { turnStartedAt: next.turnStartedAt, clockDeadline: next.clockDeadline } : {};
        const envelopes = await commitEnvelopes(tx, match, made, { ...decided.update, ...clock, ...rating.update });
        return { version, envelopes, match: next, after: decided.after };
      }));
    } catch (error) {
      throw busyIfSaturated(error);
    }
    // Only a committed state may be cached: a failed commit must leave no trace.
    if (outcome.after) this.state.games.set(outcome.match, outcome.after);
    return outcome;
  }

  private async gameOf(tx: Tx, match: MatchRow): Promise<State> {
    const cached = this.state.games.get(match.id, match.version);
    if (cached) return cached.state;
    const state = stateOf(match, await loadMoves(tx, match.id));
    this.state.games.set(match, state);
    return state;
  }
}

/** The rules state after the stored moves of a match in play. */
export function stateOf(match: MatchRow, moves: MoveRow[]): State {
  return GameCache.rebuild(
    rulesOf(match),
    match.first as Player,
    moves.map((m) => ({ square: m.square, dir: m.dir === 1 ? 1 : -1 })),
  );
}

/** Rates the match if these events end it, reports the change in the `ended` event and the row, and starts a rated pairing's return game. */
async function rateIfEnded(tx: Tx, match: MatchRow, events: MatchEvent[], now: Date, firstMoveTimeoutMs: number): Promise<{ events: MatchEvent[]; update: MatchUpdate }> {
  const ended = events.find((event) => event.type === 'ended');
  if (ended?.type !== 'ended') return { events, update: {} };
  // A move that ends the game is in `events`, not yet in the row.
  const plies = positionOf(match).ply + (events.some((event) => event.type === 'moved') ? 1 : 0);
  const rating = await rateEndedMatch(tx, match, ended.result, plies, now);
  const report = rated(ended, rating?.changes ?? null);
  const reported = events.map((event) => (event === ended ? report.event : event));
  const pairing = await returnGameAfter(tx, match, ended.result, rating, now, firstMoveTimeoutMs);
  return pairing ? { events: [...reported, pairing.event], update: { ...report.update, ...pairing.update } } : { events: reported, update: report.update };
}

/**
 * Prisma's P2028: a transaction that could not get a connection in time, or
 * outlived its time and was rolled back. Either way nothing was done and the
 * database is saturated: the request is refused as BUSY, to be sent again,
 * rather than answered as a failure of the server.
 */
function busyIfSaturated(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'P2028') return error;
  return new ServiceError(ErrorCode.Busy, 'The server is busy; try again in a moment', 503);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
