import { ErrorCode, type ClientPayload, type MatchEventEnvelope, type MatchSnapshot, type PublicPlayer, type Seat } from '@oanquan/protocol';
import type { Database } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { followed } from '../live/live-follow.js';
import { holdPlayer, type MatchRow } from '../match-records/match-store.js';
import { guestRemoved } from '../players/guest-removed.js';
import { abortion, claimOf, decideAbandoned, decideEnd, decideExpiry, decideIdleOpener, resignation, type EndRequest } from './end-decisions.js';
import { lastActivityOf } from './last-activity.js';
import { MatchReads } from './match-reads.js';
import { RefereeState, type MatchObserver, type Publish } from './referee-state.js';
import { decideSeat } from './seat-decision.js';
import { StatementPath } from './statement-path.js';
import { TransactionPath } from './transaction-path.js';

export type { MatchObserver, Publish } from './referee-state.js';

export interface MatchServiceOptions {
  /** Moves this process holds at once (queued or committing); beyond them a move is refused as BUSY. */
  maxMovesInFlight?: number;
}

/** As config.ts's MAX_MOVES_IN_FLIGHT. */
const DEFAULT_MAX_MOVES_IN_FLIGHT = 500;

/**
 * The referee, as the rest of the server calls it. Every change runs in the
 * match's queue, is decided by a pure function of the match row (see the
 * *-decision.ts modules, opener.ts, rematch.ts), stored either in one
 * statement from the row this process holds (statement-path.ts) or in a
 * transaction from the rows themselves (transaction-path.ts), and only then
 * published; the caller acknowledges after that. Reads are match-reads.ts's.
 */
export class MatchService {
  private readonly state: RefereeState;
  private readonly reads: MatchReads;
  private readonly statements: StatementPath;
  private readonly transactions: TransactionPath;
  private readonly maxMovesInFlight: number;
  private movesInFlight = 0;

  constructor(
    db: Database,
    publish: Publish,
    readonly openerTimeoutMs: number,
    readonly firstMoveTimeoutMs: number,
    private readonly now: () => Date = () => new Date(),
    options: MatchServiceOptions = {},
  ) {
    this.state = new RefereeState(db, publish, { openerTimeoutMs, firstMoveTimeoutMs }, now);
    this.reads = new MatchReads(this.state);
    this.statements = new StatementPath(this.state);
    this.transactions = new TransactionPath(this.state);
    this.maxMovesInFlight = options.maxMovesInFlight ?? DEFAULT_MAX_MOVES_IN_FLIGHT;
  }

  /**
   * Events another process committed: a live game held here follows its
   * moves without a read (see live-follow.ts). What it cannot follow stays as
   * it was; the compare-and-set then finds it behind and it is read again.
   */
  follow(envelopes: MatchEventEnvelope[]): void {
    const { games } = this.state;
    for (const envelope of envelopes) {
      const live = games.get(envelope.matchId);
      const next = live && envelope.version > live.match.version ? followed(live, envelope) : undefined;
      if (next) games.set(next.match, next.state);
    }
  }

  /** Resolves once every change already asked for has finished (shutdown). */
  drain(): Promise<void> {
    return this.state.queue.drain();
  }

  observe(observer: MatchObserver): void {
    this.state.observe(observer);
  }

  /**
   * After an outage: changes, moves and snapshots first wait for `settled`
   * (the outage credited), and `forgetCached` drops the match rows held in
   * memory, whose clocks and deadlines the credit moved without a new version.
   */
  creditOutagesWith(settled: () => Promise<void> | undefined): void {
    this.state.settled = settled;
  }

  forgetCached(): void {
    this.state.games.clear();
    this.state.snapshots.clear();
  }

  /**
   * Takes a free seat of the room's current match, or gives the player's seat
   * back; anyone else watches. Only taking a seat changes the match, so only
   * that goes through its queue and lock: watching (and coming back to one's
   * seat) is a read, which strangers cannot use to hold up the players.
   * `sitDown` pays for a seat (and makes a guest's row) before one is taken;
   * one who only watches pays nothing.
   */
  async join(code: string, player: PublicPlayer, sitDown?: () => Promise<void>): Promise<{ seat: Seat | null; snapshot: MatchSnapshot }> {
    const current = await this.reads.currentMatch(code);
    // Seats are only ever taken, never given up, and a match never goes back to waiting: a read that says so holds.
    const read = decideSeat(current, player);
    if (!read.events.length) return { seat: read.result, snapshot: await this.reads.view(current.id, current.version) };
    await sitDown?.();
    const { result, snapshot } = await this.transactions.change(current.id, async (tx, match) => {
      const decided = decideSeat(match, player);
      if (decided.events.length && !(await holdPlayer(tx, player.id))) throw guestRemoved();
      return decided;
    });
    return { seat: result, snapshot };
  }

  /**
   * One hand of rock–paper–scissors; hidden until both are in, a tie opens
   * the next round, the winner moves first. The other player then has
   * `openerTimeoutMs` to choose (see `forfeitOpener`).
   */
  async chooseHand(player: PublicPlayer, { matchId, choice }: ClientPayload<'opener:choose'>): Promise<number> {
    await this.state.settled();
    const hot = await this.state.queue.run(matchId, () => this.statements.hand(player, matchId, choice));
    if (hot) {
      await this.state.committed(hot.match, hot.envelopes);
      return hot.match.version;
    }
    return (await this.transactions.hand(player, matchId, choice)).version;
  }

  /** design.md: on timeout a player who chose wins the toss. A no-op until the deadline has passed. */
  forfeitOpener(matchId: string): Promise<void> {
    return this.transactions.forfeit(matchId);
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
      // Nothing to wait for but after an outage: no await then, which would cost the move a turn of the microtask queue.
      const settling = this.state.settled();
      if (settling) await settling;
      const outcome = await this.state.queue.run(
        payload.matchId,
        async () => (await this.statements.move(player, payload, receivedAt)) ?? this.transactions.move(player, payload, receivedAt),
      );
      await this.state.committed(outcome.match, outcome.envelopes);
      return outcome.version;
    } finally {
      this.movesInFlight--;
    }
  }

  /** The player gives up; the opponent wins. Any time in play. */
  resign(player: PublicPlayer, matchId: string): Promise<number> {
    return this.end(player, matchId, resignation);
  }

  /** Called off before its first move: no result. */
  abort(player: PublicPlayer, matchId: string): Promise<number> {
    return this.end(player, matchId, abortion);
  }

  /** The opponent has been gone past the grace period (see PresenceService): the present player takes the win. */
  claim(player: PublicPlayer, matchId: string, claimableAt: (match: MatchRow, seat: Seat) => Date | null): Promise<number> {
    return this.end(player, matchId, claimOf(claimableAt));
  }

  /**
   * Ends a match whose running clock has run out, or aborts one whose first
   * move is overdue; a no-op when neither (or another process got there first).
   */
  async expire(matchId: string): Promise<void> {
    await this.transactions.change(matchId, (_tx, match) => decideExpiry(match, this.now()));
  }

  /** Both players have been gone longer than `graceMs`: the match ends by itself (see decideAbandoned). */
  async endAbandoned(matchId: string, graceMs: number): Promise<void> {
    await this.transactions.change(matchId, (_tx, match) => decideAbandoned(match, this.now(), graceMs));
  }

  /**
   * Nobody has chosen a hand for `firstMoveTimeoutMs` since the opener began
   * or its last tie: the match is aborted (see decideIdleOpener). Decided
   * again under the lock, so a hand chosen meanwhile keeps it.
   */
  async endIdleOpener(matchId: string): Promise<void> {
    await this.transactions.change(matchId, async (tx, match) => decideIdleOpener(match, await lastActivityOf(tx, match), this.now(), this.firstMoveTimeoutMs));
  }

  /** Offer, or accept the other's offer: then a new match of the same room starts with the opener. */
  async rematch(player: PublicPlayer, matchId: string): Promise<number> {
    await this.state.settled();
    const hot = await this.state.queue.run(matchId, () => this.statements.rematch(player, matchId));
    if (hot) await this.state.committed(hot.after, hot.envelopes);
    const { created, version } = hot ? { created: hot.created, version: hot.after.version } : await this.transactions.rematch(player, matchId);
    // Committed: the opener's first hand can be decided from it.
    if (created) this.state.snapshots.set(created, []);
    return version;
  }

  /** A match's room never changes: a live match this process knows answers without a read. */
  async roomCodeOf(matchId: string): Promise<string> {
    return (await this.reads.seatsOf(matchId)).code;
  }

  seatsOf(matchId: string): Promise<{ code: string; player0Id: string | null; player1Id: string | null }> {
    return this.reads.seatsOf(matchId);
  }

  sync(matchId: string, version: number): Promise<{ events: MatchEventEnvelope[] } | { snapshot: MatchSnapshot }> {
    return this.reads.sync(matchId, version);
  }

  private async end(player: PublicPlayer, matchId: string, request: EndRequest): Promise<number> {
    const { snapshot } = await this.transactions.change(matchId, (_tx, match) => decideEnd(match, player, request, this.now()));
    return snapshot.version;
  }
}
