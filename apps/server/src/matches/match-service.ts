import { randomUUID } from 'node:crypto';
import { play, sowingAllowanceMs, type Player, type State } from '@oanquan/rules';
import {
  ErrorCode,
  limits,
  type Hand,
  type ClientPayload,
  type MatchEvent,
  type MatchEventEnvelope,
  type MatchResult,
  type MatchSnapshot,
  type PublicPlayer,
  type Seat,
} from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { guestRemoved } from '../players/guest-removed.js';
import { asJson } from '../rooms/room-service.js';
import { afterMove, clocksOnWire, remainingAt } from './clock.js';
import { onlyCreditsSince } from './credits-since.js';
import { CurrentMatches, type CurrentMatch } from './current-matches.js';
import { GameCache, type LiveGame } from './game-cache.js';
import { caughtUp } from './live-catch-up.js';
import { followed } from './live-follow.js';
import { KeyedQueue } from './keyed-queue.js';
import { ending, otherSeat, rated } from './match-end.js';
import {
  commitEvents,
  envelopesOf,
  holdPlayer,
  loadMatch,
  loadMoves,
  lockMatch,
  openerDeadline,
  openRound,
  playedMoves,
  positionOf,
  rulesOf,
  runningSeat,
  seatOf,
  snapshotOf,
  type MatchRow,
  type MoveRow,
  type Tx,
} from './match-store.js';
import { readMatchRow } from './match-row.js';
import { missedEvents } from './missed-events.js';
import { MoveCommits, startedLater, type MoveRecord } from './move-commit.js';
import { commitHand } from './opener-commit.js';
import { commitRematch } from './rematch-commit.js';
import { decideRematch, newMatchRow, nextMatchData, type RematchDecision } from './rematch.js';
import { decideHand, startPlaying, type HandDecision } from './opener.js';
import { SharedRead } from './shared-read.js';
import { SnapshotCache } from './snapshot-cache.js';
import { TransactionGate } from './transaction-gate.js';
import { rateEndedMatch } from '../ratings/rating-service.js';
import { lapsedFirstMove, refuseAbortOfReturnGame, returnGameAfter } from '../ratings/rated-pairing.js';

/**
 * Where committed events go: the Socket.IO room of the match's room code.
 * When it returns a promise, the change is only answered once it settles.
 */
export type Publish = (roomCode: string, envelopes: MatchEventEnvelope[]) => void | Promise<void>;

/** Told after every committed change of a match (clock deadlines, presence once play starts, …). */
export interface MatchObserver {
  /** `seatsComputer`: a seat is the computer's (a rematch keeps the same players). */
  changed(match: { id: string; status: string; clockDeadline: Date | null; roomCode: string; seatsComputer: boolean }, envelopes: MatchEventEnvelope[]): void;
}

type Decision<R> = { result: R; events: MatchEvent[]; update?: Parameters<typeof commitEvents>[3] };

/** A move checked and worked out, not yet committed: `next` is the row after it, at its new version. */
interface DecidedMove {
  events: MatchEvent[];
  update: Parameters<typeof commitEvents>[3];
  next: MatchRow;
  after: State;
  record: MoveRecord;
  now: Date;
  /** It ends a rated match, whose ratings the transaction updates. */
  rated: boolean;
}

/** A committed move (or the earlier outcome of its move id): no envelopes when nothing changed. */
interface MoveOutcome {
  version: number;
  envelopes: MatchEventEnvelope[];
  match: MatchRow;
}

export interface MatchServiceOptions {
  /** Moves this process holds at once (queued or committing); beyond them a move is refused as BUSY. */
  maxMovesInFlight?: number;
}

/** As config.ts's MAX_MOVES_IN_FLIGHT. */
const DEFAULT_MAX_MOVES_IN_FLIGHT = 500;

/** Changes waiting for a transaction before more are refused as BUSY: a burst of a thousand openers still waits its turn. */
const MAX_TRANSACTIONS_WAITING = 2000;

/**
 * The referee. Every change runs in the match's queue, checks its
 * preconditions in a fixed order, commits its events in one transaction,
 * and only then publishes them; the caller acknowledges after that.
 */
export class MatchService {
  private readonly queue = new KeyedQueue();
  private readonly games = new GameCache();
  private readonly snapshots = new SnapshotCache();
  private readonly moveCommits: MoveCommits;
  /**
   * On the embedded database this process is the only one changing matches,
   * so it knows a room's current match without asking (its single thread runs
   * the queries too, so a crowd's reads would hold up everything else);
   * processes sharing PostgreSQL ask every time.
   */
  private readonly currents: CurrentMatches | undefined;
  private readonly currentReads = new SharedRead((code) =>
    this.db.prisma.match.findFirst({
      where: { room: { code } },
      orderBy: { number: 'desc' },
      select: { id: true, version: true, status: true, player0Id: true, player1Id: true },
    }),
  );
  private readonly snapshotReads = new SharedRead((matchId) => {
    const options = this.db.kind === 'postgresql' ? { isolationLevel: 'RepeatableRead' as const } : {};
    return this.db.prisma.$transaction(async (tx) => ({ match: await loadMatch(tx, matchId), moves: await loadMoves(tx, matchId) }), options);
  });
  private readonly observers: MatchObserver[] = [];
  private readonly maxMovesInFlight: number;
  private movesInFlight = 0;
  /**
   * The transactions of the colder paths, a few at a time: fewer than the
   * database client's pool on PostgreSQL, which the reads outside them also
   * use; one on PGlite, which runs one at a time anyway.
   */
  private readonly transactions: TransactionGate;
  /** Set by an outage credit: what to wait for before any deadline is judged (nothing, mostly). */
  private settled: () => Promise<void> | undefined = () => undefined;

  constructor(
    private readonly db: Database,
    private readonly publish: Publish,
    readonly openerTimeoutMs: number,
    readonly firstMoveTimeoutMs: number,
    private readonly now: () => Date = () => new Date(),
    options: MatchServiceOptions = {},
  ) {
    this.currents = db.kind === 'pglite' ? new CurrentMatches() : undefined;
    this.moveCommits = new MoveCommits(db.sql);
    this.maxMovesInFlight = options.maxMovesInFlight ?? DEFAULT_MAX_MOVES_IN_FLIGHT;
    this.transactions = new TransactionGate(db.kind === 'pglite' ? 1 : 8, MAX_TRANSACTIONS_WAITING);
  }

  /**
   * Events another process committed: a live game held here follows its
   * moves without a read (see live-follow.ts). What it cannot follow stays as
   * it was; the compare-and-set then finds it behind and it is read again.
   */
  follow(envelopes: MatchEventEnvelope[]): void {
    for (const envelope of envelopes) {
      const live = this.games.get(envelope.matchId);
      const next = live && envelope.version > live.match.version ? followed(live, envelope) : undefined;
      if (next) this.games.set(next.match, next.state);
    }
  }

  /** Resolves once every change already asked for has finished (shutdown). */
  drain(): Promise<void> {
    return this.queue.drain();
  }

  observe(observer: MatchObserver): void {
    this.observers.push(observer);
  }

  /**
   * After an outage: changes, moves and snapshots first wait for `settled`
   * (the outage credited), and `forgetCached` drops the match rows held in
   * memory, whose clocks and deadlines the credit moved without a new version.
   */
  creditOutagesWith(settled: () => Promise<void> | undefined): void {
    this.settled = settled;
  }

  forgetCached(): void {
    this.games.clear();
    this.snapshots.clear();
  }

  /**
   * Takes a free seat of the room's current match, or gives the player's seat
   * back; anyone else watches. Only taking a seat changes the match, so only
   * that goes through its queue and lock: watching (and coming back to one's
   * seat) is a read, which strangers cannot use to hold up the players.
   */
  /** `sitDown` pays for a seat (and makes a guest's row) before one is taken; one who only watches pays nothing. */
  async join(code: string, player: PublicPlayer, sitDown?: () => Promise<void>): Promise<{ seat: Seat | null; snapshot: MatchSnapshot }> {
    const current = await this.currentMatch(code);
    // Seats are only ever taken, never given up, and a match never goes back to waiting: a read that says so holds.
    const held = seatOf(current, player.id);
    if (held !== null || current.status !== 'waiting') return { seat: held, snapshot: await this.view(current.id, current.version) };
    await sitDown?.();
    const { result, snapshot } = await this.change(current.id, async (tx, match): Promise<Decision<Seat | null>> => {
      const seated = seatOf(match, player.id);
      if (seated !== null || match.status !== 'waiting') return { result: seated, events: [] };
      if (!(await holdPlayer(tx, player.id))) throw guestRemoved();
      const seat: Seat = match.player0Id === null ? 0 : 1;
      const bothSeated = seat === 1 ? match.player0Id !== null : match.player1Id !== null;
      const update = seat === 0 ? { player0Id: player.id } : { player1Id: player.id };
      return {
        result: seat,
        events: [{ type: 'seated', seat, player }],
        update: { ...update, ...(bothSeated ? { status: 'opener' as const } : {}) },
      };
    });
    return { seat: result, snapshot };
  }

  /** The room's newest match, in one indexed read shared by everyone asking at once. */
  private async currentMatch(code: string): Promise<CurrentMatch> {
    const known = this.currents?.get(code);
    if (known) return known;
    const mark = this.currents?.mark();
    const current = await this.currentReads.read(code);
    if (!current) throw new ServiceError(ErrorCode.RoomNotFound, `No room ${code}`, 404);
    if (mark !== undefined) this.currents?.remember(code, current, mark);
    return current;
  }

  /**
   * One hand of rock–paper–scissors; hidden until both are in, a tie opens
   * the next round, the winner moves first. The other player then has
   * `openerTimeoutMs` to choose (see `forfeitOpener`).
   */
  async chooseHand(player: PublicPlayer, { matchId, choice }: ClientPayload<'opener:choose'>): Promise<number> {
    await this.settled();
    const hot = await this.queue.run(matchId, () => this.handFromCache(player, matchId, choice));
    if (hot) {
      await this.committed(hot.match, hot.envelopes);
      return hot.match.version;
    }
    const { snapshot } = await this.change(matchId, async (tx, match): Promise<Decision<null>> => {
      const now = this.now();
      const decided = decideHand(match, requireSeat(match, player.id), choice, now, this);
      if (decided === 'lapsed') return (await this.lapsedOpener(tx, match, now))!;
      const { round, opened } = decided;
      if (opened) await tx.openerRound.create({ data: round });
      else await tx.openerRound.update({ where: { matchId_round: { matchId, round: round.round } }, data: { choice0: round.choice0, choice1: round.choice1, winner: round.winner, decidedAt: round.decidedAt } });
      return { result: null, events: decided.events, update: decided.update };
    });
    return snapshot.version;
  }

  /**
   * The hand decided against the newest match row this process holds and
   * committed in one statement. When none is held, or the one held might be
   * behind (a refusal, or another change got there first), the row is read
   * in one statement and the hand decided again: with players on two
   * processes the second hand of every round lands where the first is not
   * held. Undefined whenever that does not tell either (a refusal that
   * stands, a lapsed round): the transaction then decides from the database.
   */
  private async handFromCache(player: PublicPlayer, matchId: string, choice: Hand): Promise<{ match: MatchRow; envelopes: MatchEventEnvelope[] } | undefined> {
    const held = this.snapshots.latest(matchId)?.match;
    const hot = held && (await this.handOn(held, player, choice));
    if (hot) return hot;
    const fresh = await readMatchRow(this.db.sql, matchId);
    return fresh && fresh.version !== held?.version ? this.handOn(fresh, player, choice) : undefined;
  }

  /** One try of the hand against the row `match`, committed if that row is still the match's. */
  private async handOn(match: MatchRow, player: PublicPlayer, choice: Hand): Promise<{ match: MatchRow; envelopes: MatchEventEnvelope[] } | undefined> {
    const matchId = match.id;
    const seat = seatOf(match, player.id);
    if (seat === null || seat === undefined || match.status !== 'opener') return undefined;
    const now = this.now();
    let decided: HandDecision | 'lapsed';
    try {
      decided = decideHand(match, seat, choice, now, this);
    } catch (error) {
      if (error instanceof ServiceError) return undefined;
      throw error;
    }
    if (decided === 'lapsed') return undefined;
    const rounds = decided.opened ? [...match.rounds, decided.round] : match.rounds.map((r) => (r.round === decided.round.round ? decided.round : r));
    const next = { ...match, ...decided.update, rounds, version: match.version + decided.events.length } as MatchRow;
    const envelopes = envelopesOf(match, decided.events, now);
    if (!(await commitHand(this.db.sql, match.version, next, decided.round, envelopes, now))) {
      this.snapshots.delete(matchId);
      return undefined;
    }
    if (next.status === 'playing') this.games.set(next, stateOf(next, []));
    // Held before the queue lets the other hand in, which is decided from it.
    this.snapshots.set(next, []);
    return { match: next, envelopes };
  }

  /** design.md: on timeout a player who chose wins the toss. A no-op until the deadline has passed. */
  async forfeitOpener(matchId: string): Promise<void> {
    await this.change(matchId, async (tx, match) => (await this.lapsedOpener(tx, match, this.now())) ?? { result: null, events: [] });
  }

  /** The forfeit, once the open round's deadline has passed. */
  private async lapsedOpener(tx: Tx, match: MatchRow, now: Date): Promise<Decision<null> | null> {
    const deadline = openerDeadline(match, this.openerTimeoutMs);
    const open = openRound(match);
    if (!deadline || !open || deadline > now) return null;
    const winner: Seat = open.choice0 !== null ? 0 : 1;
    await tx.openerRound.update({ where: { matchId_round: { matchId: match.id, round: open.round } }, data: { winner, decidedAt: now } });
    const start = startPlaying(match, winner, now, this.firstMoveTimeoutMs);
    return { result: null, events: [{ type: 'opener-forfeit', round: open.round, winner }, start.event], update: start.update };
  }

  /**
   * design.md "One move, end to end", steps 4–6. `receivedAt` is when the
   * socket edge got the move, taken by the server before any waiting: the
   * mover is charged up to then and the time-out judged then, whatever
   * queued in front of the move.
   */
  async move(player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<number> {
    // Shed, not queued: past this many, waiting would only make every move late (and the player can resend).
    if (this.movesInFlight >= this.maxMovesInFlight) throw new ServiceError(ErrorCode.Busy, 'The server is busy; send the move again in a moment', 503);
    this.movesInFlight++;
    try {
      await this.settled();
      const outcome = await this.queue.run(payload.matchId, async () => (await this.moveFromCache(player, payload, receivedAt)) ?? this.moveInTransaction(player, payload, receivedAt));
      await this.committed(outcome.match, outcome.envelopes);
      return outcome.version;
    } finally {
      this.movesInFlight--;
    }
  }

  /**
   * The hot path: decided against the cached match of the version this process
   * last saw and committed in one statement. When the cache may be behind (a
   * refusal that a fresher row might not confirm, or another process moved
   * first), it is brought up to date in one more statement and the move is
   * decided again. Whenever that is not enough (no cache, a refusal that
   * stands, a move id seen before, or an ending to be rated) it answers
   * undefined and the transaction decides from the database.
   */
  private async moveFromCache(player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<MoveOutcome | undefined> {
    const cached = this.games.get(payload.matchId) ?? (await this.liveFromRows(payload.matchId));
    if (!cached) return undefined;
    const first = await this.commitFromCache(cached, player, payload, receivedAt);
    if (first !== 'stale') return first === 'cold' ? undefined : first;
    const live = await caughtUp(this.db.sql, cached);
    if (!live) {
      this.games.delete(payload.matchId);
      return undefined;
    }
    this.games.set(live.match, live.state);
    const second = await this.commitFromCache(live, player, payload, receivedAt);
    return typeof second === 'string' ? undefined : second;
  }

  /**
   * A match in play this process does not hold (it started on another
   * process, or before a restart), read in two statements outside any
   * transaction: the compare-and-set of the commit still tells whether it
   * was current. Undefined when it is not in play.
   */
  private async liveFromRows(matchId: string): Promise<LiveGame | undefined> {
    const match = await readMatchRow(this.db.sql, matchId);
    if (match?.status !== 'playing' || match.first === null) return undefined;
    const live = await caughtUp(this.db.sql, { match, state: GameCache.rebuild(rulesOf(match), match.first as Player, []) });
    if (live) this.games.set(live.match, live.state);
    return live;
  }

  /** One try of the hot path against `live`: committed, or the cache may be `stale`, or only the transaction can tell (`cold`). */
  private async commitFromCache(live: LiveGame, player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<MoveOutcome | 'stale' | 'cold'> {
    let decided: DecidedMove;
    try {
      decided = this.decideMove(live.match, live.state, player, payload, receivedAt);
    } catch (error) {
      if (error instanceof ServiceError) return 'stale';
      throw error;
    }
    if (decided.rated) return 'cold';
    const { record, events, now } = decided;
    const sent = envelopesOf(live.match, events, now);
    const committed = await this.moveCommits.commit(live.match.version, decided.next, record, sent, now);
    if (committed === 'conflict') return 'stale';
    if (committed === 'duplicate') return 'cold';
    const { next, envelopes } = startedLater(decided.next, sent, committed.lateMs);
    this.games.set(next, decided.after);
    return { version: next.version, envelopes, match: next };
  }

  /** The cold path: under the match's row lock, from the rows themselves; an ending is rated here. */
  private async moveInTransaction(player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): Promise<MoveOutcome> {
    const { matchId, moveId } = payload;
    let outcome: MoveOutcome & { after?: State };
    try {
      outcome = await this.transactions.run(() => this.db.prisma.$transaction(async (tx) => {
        await lockMatch(tx, matchId);
        const match = await loadMatch(tx, matchId);
        const earlier = await tx.move.findUnique({ where: { matchId_moveId: { matchId, moveId } } });
        if (earlier) {
          if (earlier.playerId !== player.id) throw new ServiceError(ErrorCode.BadRequest, 'That move id is taken');
          return { version: earlier.version, envelopes: [], match };
        }
        const seen = payload.version < match.version && (await onlyCreditsSince(tx, matchId, payload.version)) ? match.version : payload.version;
        const decided = this.decideMove(match, await this.gameOf(tx, match), player, { ...payload, version: seen }, receivedAt);
        const rating = await rateIfEnded(tx, match, decided.events, decided.now, this.firstMoveTimeoutMs);
        const next = { ...decided.next, ...rating.update, version: match.version + rating.events.length } as MatchRow;
        const { record } = decided;
        await tx.move.create({
          data: { matchId, ply: record.ply, moveId, playerId: player.id, square: record.square, dir: record.dir, version: next.version, remainingMs: record.remainingMs, createdAt: record.movedAt },
        });
        const envelopes = await commitEvents(tx, match, rating.events, { ...decided.update, ...rating.update });
        return { version: next.version, envelopes, match: next, after: decided.after };
      }));
    } catch (error) {
      throw busyIfSaturated(error);
    }
    // Only a committed state may be cached: a failed commit must leave no trace.
    if (outcome.after) this.games.set(outcome.match, outcome.after);
    return outcome;
  }

  /**
   * Checks a move in the fixed order (seat, phase, turn, version, clock, rules)
   * against a match row and the rules state of its version, and works out
   * what it changes. Touches nothing; throws the refusal.
   */
  private decideMove(match: MatchRow, before: State, player: PublicPlayer, payload: ClientPayload<'move'>, receivedAt: Date): DecidedMove {
    const { moveId, version, square, dir } = payload;
    const seat = requireSeat(match, player.id);
    if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
    if (before.position.toMove !== seat) throw new ServiceError(ErrorCode.NotYourTurn, 'It is not your turn');
    if (version !== match.version) {
      throw new ServiceError(ErrorCode.StaleVersion, `You saw version ${version}; the match is at ${match.version}`, 409);
    }
    const now = this.now();
    // Never before the turn began (another process's clock may run a little behind).
    const movedAt = match.turnStartedAt && receivedAt < match.turnStartedAt ? match.turnStartedAt : receivedAt;
    if (match.clock0Ms !== null && remainingAt(match, seat, seat, movedAt) <= 0) {
      throw new ServiceError(ErrorCode.TimeOut, 'Your time has run out', 409);
    }
    if (firstMoveLapsed(match, movedAt)) throw new ServiceError(ErrorCode.TimeOut, 'The first move was due earlier; the match is aborted', 409);
    const played = play(before, { square, dir });
    if (!played.ok) throw new ServiceError(played.code, illegalMoveMessage(played.code));

    const after = played.state;
    const ply = after.position.ply;
    // The next mover's clock stands while the stones move (see sowing-time.ts in the rules); the commit may move it later still.
    const startsAt = new Date(now.getTime() + sowingAllowanceMs(played.events));
    const clock = match.clock0Ms === null ? null : afterMove(match, match.room, seat, movedAt, startsAt);
    const remainingMs = clock?.moverRemainingMs ?? null;
    const [playedMove] = playedMoves(match.first as Seat, [{ ply, square, dir, remainingMs }]);
    const result = after.position.result;
    const running = result ? null : after.position.toMove;
    const events: MatchEvent[] = [
      {
        type: 'moved',
        move: playedMove!,
        events: [...played.events],
        position: after.position,
        clocks: clock && clocksOnWire(clock.update, match.room, running, now),
      },
    ];
    let update: Parameters<typeof commitEvents>[3] = { position: asJson(after.position), ...clock?.update };
    if (result) {
      const end = ending({ ...match, ...clock?.update, position: asJson(after.position) as MatchRow['position'] }, { winner: result.winner, reason: result.reason, score: result.score }, now);
      events.push(end.event);
      update = { ...update, ...end.update };
    }
    return {
      events,
      update,
      after,
      now,
      rated: result !== null && match.rated,
      next: { ...match, ...update, version: match.version + events.length } as MatchRow,
      record: { ply, moveId, playerId: player.id, square, dir, remainingMs, movedAt },
    };
  }

  /** The player gives up; the opponent wins. Any time in play. */
  resign(player: PublicPlayer, matchId: string): Promise<number> {
    return this.end(player, matchId, (match, seat) => {
      if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
      return { winner: otherSeat(seat), reason: 'resign', score: null };
    });
  }

  /** Called off before its first move: no result. */
  abort(player: PublicPlayer, matchId: string): Promise<number> {
    return this.end(player, matchId, (match) => {
      const moved = (match.position as { ply: number }).ply > 0;
      if (match.status === 'ended' || moved) throw new ServiceError(ErrorCode.NotAllowedNow, 'A match can only be aborted before its first move');
      refuseAbortOfReturnGame(match);
      return { winner: null, reason: 'abort', score: null };
    });
  }

  /** The opponent has been gone past the grace period (see PresenceService): the present player takes the win. */
  claim(player: PublicPlayer, matchId: string, claimableAt: (match: MatchRow, seat: Seat) => Date | null): Promise<number> {
    return this.end(player, matchId, (match, seat) => {
      if (match.status !== 'playing') throw new ServiceError(ErrorCode.NotInPlay, 'The match is not in play');
      const since = claimableAt(match, otherSeat(seat));
      if (!since || since > this.now()) throw new ServiceError(ErrorCode.NotAllowedNow, 'Your opponent has not been gone long enough');
      return { winner: seat, reason: 'abandon', score: null };
    });
  }

  /**
   * Ends a match whose running clock has run out, or aborts one whose first
   * move is overdue; a no-op when neither (or another process got there first).
   */
  async expire(matchId: string): Promise<void> {
    await this.change(matchId, async (_tx, match): Promise<Decision<null>> => {
      const now = this.now();
      const result = overdue(match, now);
      if (!result) return { result: null, events: [] };
      const end = ending(match, result, now);
      return { result: null, events: [end.event], update: end.update };
    });
  }

  /**
   * Both players have been gone longer than `graceMs`: nobody is left to
   * claim, so the match ends by itself. Before the first move (the opener
   * included) it is aborted; after it, abandoned with no winner. Neither is
   * rated. A clock that ran out meanwhile still ends it by timeout.
   */
  async endAbandoned(matchId: string, graceMs: number): Promise<void> {
    await this.change(matchId, async (_tx, match): Promise<Decision<null>> => {
      const now = this.now();
      const cutoff = now.getTime() - graceMs;
      const gone = [match.absent0Since, match.absent1Since].every((since) => since !== null && since.getTime() <= cutoff);
      if (!gone || (match.status !== 'opener' && match.status !== 'playing')) return { result: null, events: [] };
      const moved = match.status === 'playing' && positionOf(match).ply > 0;
      const result = overdue(match, now) ?? { winner: null, reason: moved ? 'abandon' : 'abort', score: null };
      const end = ending(match, result, now);
      return { result: null, events: [end.event], update: end.update };
    });
  }

  /** Offer, or accept the other's offer: then a new match of the same room starts with the opener. */
  async rematch(player: PublicPlayer, matchId: string): Promise<number> {
    await this.settled();
    const hot = await this.queue.run(matchId, () => this.rematchInOneStatement(player, matchId));
    if (hot) {
      await this.committed(hot.after, hot.envelopes);
      if (hot.created) this.snapshots.set(hot.created, []);
      return hot.after.version;
    }
    const { result: created, snapshot } = await this.change(matchId, async (tx, match): Promise<Decision<MatchRow | null>> => {
      const decided = decideRematch(match, requireSeat(match, player.id));
      if (!decided) return { result: null, events: [] };
      if (!decided.accepts) return { result: null, events: decided.events, update: decided.offer };
      const next = await tx.match.create({ data: nextMatchData(match) });
      // Room and seats are the ended match's, read in this transaction: the new row needs no read of its own.
      const row: MatchRow = { ...next, room: match.room, player0: match.player0, player1: match.player1, rounds: [] };
      return { result: row, events: [...decided.events, { type: 'rematch', matchId: next.id }], update: { ...decided.offer, nextMatchId: next.id } };
    });
    // Committed: the opener's first hand can be decided from it.
    if (created) this.snapshots.set(created, []);
    return snapshot.version;
  }

  /**
   * The rematch read and committed in one statement each, holding nothing in
   * between. When another change got there first it is read and decided once
   * more: both players asking at once from two processes is the usual case,
   * and the second then accepts the first's offer. Undefined whenever the
   * transaction should decide (a refusal, a second race lost).
   */
  private async rematchInOneStatement(player: PublicPlayer, matchId: string, tries = 2): Promise<{ after: MatchRow; created: MatchRow | null; envelopes: MatchEventEnvelope[] } | undefined> {
    const match = await readMatchRow(this.db.sql, matchId);
    const seat = match && seatOf(match, player.id);
    if (!match || seat === null || seat === undefined) return undefined;
    let decided: RematchDecision;
    try {
      decided = decideRematch(match, seat);
    } catch (error) {
      if (error instanceof ServiceError) return undefined;
      throw error;
    }
    if (!decided) return { after: match, created: null, envelopes: [] };
    const now = this.now();
    const created = decided.accepts ? newMatchRow(match, randomUUID(), now) : null;
    const events: MatchEvent[] = created ? [...decided.events, { type: 'rematch', matchId: created.id }] : decided.events;
    const after: MatchRow = { ...match, ...decided.offer, nextMatchId: created?.id ?? null, version: match.version + events.length };
    const envelopes = envelopesOf(match, events, now);
    if (!(await commitRematch(this.db.sql, match.version, after, created, envelopes, now))) return tries > 1 ? this.rematchInOneStatement(player, matchId, tries - 1) : undefined;
    return { after, created, envelopes };
  }

  /** A match's room never changes: a live match this process knows answers without a read. */
  async roomCodeOf(matchId: string): Promise<string> {
    return (await this.seatsOf(matchId)).code;
  }

  /** The room of a match and who holds its seats (seats never change once play starts, when a live match is known here). */
  async seatsOf(matchId: string): Promise<{ code: string; player0Id: string | null; player1Id: string | null }> {
    const known = this.games.get(matchId);
    if (known) return { code: known.match.room.code, player0Id: known.match.player0Id, player1Id: known.match.player1Id };
    const match = await this.db.prisma.match.findUnique({ where: { id: matchId }, select: { player0Id: true, player1Id: true, room: { select: { code: true } } } });
    if (!match) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    return { code: match.room.code, player0Id: match.player0Id, player1Id: match.player1Id };
  }

  /**
   * What a client missed since `version`: the events themselves, which it
   * can animate, or a snapshot when the gap is long (a snapshot is then
   * shorter to send and to apply) or the version is one the match never had.
   * The version and the events come in one statement.
   */
  async sync(matchId: string, version: number): Promise<{ events: MatchEventEnvelope[] } | { snapshot: MatchSnapshot }> {
    const missed = await missedEvents(this.db.sql, matchId, version, limits.maxSyncEvents);
    if (!missed) throw new ServiceError(ErrorCode.MatchNotFound, 'No such match', 404);
    if (!missed.events) return { snapshot: await this.view(matchId, missed.version) };
    return { events: missed.events };
  }

  /**
   * The snapshot of a match as of `version` (the version the caller has just
   * read) or later: from memory when this process has it, else read in one
   * transaction that takes no lock (repeatable read, so the match, its rounds
   * and its moves agree). Nothing here waits for a change in progress.
   */
  private async view(matchId: string, version: number): Promise<MatchSnapshot> {
    await this.settled();
    let rows = this.snapshots.get(matchId, version);
    if (!rows) {
      rows = await this.snapshotReads.read(matchId);
      this.snapshots.set(rows.match, rows.moves);
    }
    return snapshotOf(rows.match, rows.moves, this.now(), this.openerTimeoutMs);
  }

  /**
   * Ends a match the way `decide` says, for a player who holds a seat (that
   * is checked first, whatever else holds), unless the match is already
   * overdue: then it ends as the sweeper would have a moment later.
   */
  private async end(player: PublicPlayer, matchId: string, decide: (match: MatchRow, seat: Seat) => MatchResult): Promise<number> {
    const { snapshot } = await this.change(matchId, async (_tx, match): Promise<Decision<null>> => {
      const seat = requireSeat(match, player.id);
      const now = this.now();
      const end = ending(match, overdue(match, now) ?? decide(match, seat), now);
      return { result: null, events: [end.event], update: end.update };
    });
    return snapshot.version;
  }

  /**
   * The common shape of a change: in the match's queue and one transaction,
   * decide the events from the current row, commit them with the version
   * compare-and-set, then publish. Another process may change the match
   * between our read and our write; the decision is then made again.
   */
  private async change<R>(matchId: string, decide: (tx: Tx, match: MatchRow) => Promise<Decision<R>> | Decision<R>): Promise<{ result: R; snapshot: MatchSnapshot }> {
    await this.settled();
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.queue.run(matchId, () =>
          this.transactions.run(() => this.db.prisma.$transaction(async (tx) => {
            await lockMatch(tx, matchId);
            const match = await loadMatch(tx, matchId);
            const decision = await decide(tx, match);
            const rating = await rateIfEnded(tx, match, decision.events, this.now(), this.firstMoveTimeoutMs);
            const envelopes = rating.events.length ? await commitEvents(tx, match, rating.events, { ...decision.update, ...rating.update }) : [];
            const after = envelopes.length ? await loadMatch(tx, matchId) : match;
            // No move is made before play: joining and the opener spare the read.
            const moves = match.status === 'waiting' || match.status === 'opener' ? [] : await loadMoves(tx, matchId);
            return { result: decision.result, envelopes, after, moves, snapshot: snapshotOf(after, moves, this.now(), this.openerTimeoutMs) };
          })),
        );
        if (outcome.envelopes.length && outcome.after.status === 'playing') this.games.set(outcome.after, stateOf(outcome.after, outcome.moves));
        await this.committed(outcome.after, outcome.envelopes);
        this.snapshots.set(outcome.after, outcome.moves);
        return outcome;
      } catch (error) {
        const conflict = (error instanceof ServiceError && error.code === ErrorCode.StaleVersion) || isUniqueViolation(error);
        if (!conflict || attempt === 3) throw busyIfSaturated(error);
      }
    }
  }

  private async committed(match: MatchRow, envelopes: MatchEventEnvelope[]): Promise<void> {
    if (!envelopes.length) return;
    this.snapshots.forgetBefore(match.id, match.version);
    this.currents?.changed(match.room.code);
    if (match.status === 'ended') this.games.delete(match.id);
    await this.publish(match.room.code, envelopes);
    const seatsComputer = match.player0?.botLevel != null || match.player1?.botLevel != null;
    for (const observer of this.observers) {
      observer.changed({ id: match.id, status: match.status, clockDeadline: match.clockDeadline, roomCode: match.room.code, seatsComputer }, envelopes);
    }
  }

  private async gameOf(tx: Tx, match: MatchRow): Promise<State> {
    const cached = this.games.get(match.id, match.version);
    if (cached) return cached.state;
    const state = stateOf(match, await loadMoves(tx, match.id));
    this.games.set(match, state);
    return state;
  }
}

/** The rules state after the stored moves of a match in play. */
function stateOf(match: MatchRow, moves: MoveRow[]): State {
  return GameCache.rebuild(
    rulesOf(match),
    match.first as Player,
    moves.map((m) => ({ square: m.square, dir: m.dir === 1 ? 1 : -1 })),
  );
}

/** Rates the match if these events end it, reports the change in the `ended` event and the row, and starts a rated pairing's return game. */
async function rateIfEnded(tx: Tx, match: MatchRow, events: MatchEvent[], now: Date, firstMoveTimeoutMs: number): Promise<{ events: MatchEvent[]; update: Prisma.MatchUpdateManyMutationInput }> {
  const ended = events.find((event) => event.type === 'ended');
  if (ended?.type !== 'ended') return { events, update: {} };
  // A move that ends the game is in `events`, not yet in the row.
  const lastMove = events.filter((event) => event.type === 'moved').at(-1);
  const plies = lastMove?.type === 'moved' ? lastMove.move.ply : positionOf(match).ply;
  const rating = await rateEndedMatch(tx, match, ended.result, plies, now);
  const report = rated(ended, rating?.changes ?? null);
  const reported = events.map((event) => (event === ended ? report.event : event));
  const pairing = await returnGameAfter(tx, match, ended.result, rating, now, firstMoveTimeoutMs);
  return pairing ? { events: [...reported, pairing.event], update: { ...report.update, ...pairing.update } } : { events: reported, update: report.update };
}

/** What ends a match without anyone asking: a lapsed first move aborts it (loses a return game), a clock that ran out loses it. */
function overdue(match: MatchRow, now: Date): MatchResult | null {
  if (firstMoveLapsed(match, now)) return lapsedFirstMove(match);
  return flagged(match, now);
}

function firstMoveLapsed(match: MatchRow, now: Date): boolean {
  return match.status === 'playing' && positionOf(match).ply === 0 && match.firstMoveDeadline !== null && match.firstMoveDeadline <= now;
}

/** The timeout result when the running clock has run out, else null. */
function flagged(match: MatchRow, now: Date): MatchResult | null {
  const running = runningSeat(match);
  if (running === null || match.clock0Ms === null || remainingAt(match, running, running, now) > 0) return null;
  return { winner: otherSeat(running), reason: 'timeout', score: null };
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

function requireSeat(match: MatchRow, playerId: string): Seat {
  const seat = seatOf(match, playerId);
  if (seat === null) throw new ServiceError(ErrorCode.NotAPlayer, 'You are watching this match, not playing it', 403);
  return seat;
}

function illegalMoveMessage(code: string): string {
  switch (code) {
    case 'ERR_EMPTY_SQUARE':
      return 'That square is empty';
    case 'ERR_NOT_YOUR_SQUARE':
      return 'You can only sow from your own citizen squares';
    case 'ERR_GAME_OVER':
      return 'The game is over';
    default:
      return 'That is not a move';
  }
}
