// Plays the computer's seats. It learns of every committed change through
// the match service's observer and answers for the computer exactly as a
// person's client would: a hand when the opener waits for one, a move when
// it is to move, a rematch offer when the match is over, a claim when the
// person has been gone past the grace period. Every answer goes through the
// same MatchService methods a person's socket calls, so it is checked,
// versioned, recorded and broadcast the same way.
//
// Several server processes: a change is observed only by the process that
// committed it, so normally exactly one drives the reply. The periodic
// sweep (which also resumes games after a restart) may make two processes
// answer at once; that is harmless: each attempt is a move at the version it
// read, so once one has been committed the other is refused (not its turn,
// or a stale version) and dropped. The move ids are random: a fixed one per
// ply could be taken first by the person, who would then block the
// computer's move and win on time.
//
// However many games strangers start, the computer must not take what
// people's moves need. All its database work in a process (its reads and its
// answers) goes through a yielding lane a few statements wide, so it holds at
// most those few of the pools' connections, and starts only when no move
// between people is in flight (or it has waited a while: see
// yielding-lane.ts), so people's moves come first on the event loop; its
// searches go through a lane as wide as the engine's threads, so none waits
// behind a queue inside the pool, and one address holds all but one of its
// places at most, so anyone else's search starts at once. Both lanes give
// their places to the addresses that started the games in turn, so one
// address with hundreds of games waits behind itself, not in front of
// everyone else. Each search has a deadline counted from the moment the
// computer's turn was seen, no later than its move is due (think-budget.ts);
// past it (still waiting for a place, or a worker starved of CPU) the
// computer plays without its search.

import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { EngineError, type EnginePool, type Level } from '@oanquan/engine';
import { ErrorCode, hand, type MatchEventEnvelope, type Seat } from '@oanquan/protocol';
import { legalMoves, newGame, play, type Move, type Player, type Position, type RuleOptions } from '@oanquan/rules';
import type { Database } from '../db/database.js';
import type { MatchRow } from '../match-records/match-store.js';
import { logFailure, ServiceError } from '../errors.js';
import { remainingAt } from '../match-records/clock.js';
import type { MatchObserver, MatchService } from '../matches/match-service.js';
import type { PresenceService } from '../presence/presence-service.js';
import { PeriodicTask } from '../periodic-task.js';
import type { BotPlayer } from './bot-players.js';
import { FairLane } from './fair-lane.js';
import type { PeopleFirst } from './people-first.js';
import { LaneFull, YieldingLane, type YieldingLaneOptions } from './yielding-lane.js';
import { loadStep, type StepMatch } from './step-read.js';
import { thinkBudgetMs } from './think-budget.js';

export interface BotSettings {
  /** The longest the engine may think about one move (the clock may allow less). */
  readonly thinkMs: number;
  /** The computer's move lands no sooner than this after its turn began, so a person sees their own move before the reply. */
  readonly moveDelayMs: number;
  /** How often live games against the computer are looked at (restarts, other processes, a failed attempt). */
  readonly sweepEveryMs: number;
  /** The longest a person's turn in an untimed game may last before the computer claims the win (see idleClaim). */
  readonly idleMs: number;
  /** Database statements the computer runs at once (BOT_DATABASE_SLOTS), how many may wait, and how long people's moves may hold them up. */
  readonly database: YieldingLaneOptions;
  /** Searches it asks of the engine at once: the engine's threads. */
  readonly searchSlots: number;
}

/**
 * Told of each search's wall time, from the computer's turn being seen to its move being chosen, waiting included,
 * and of the nodes it searched (null when no search answered in time).
 */
export type SearchTimer = (level: number, seconds: number, nodes: number | null) => void;

/** Refusals that only mean the match moved on meanwhile; the change that moved it wakes the driver again. */
const MOVED_ON: ReadonlySet<string> = new Set([
  ErrorCode.StaleVersion,
  ErrorCode.NotYourTurn,
  ErrorCode.NotInPlay,
  ErrorCode.NotInOpener,
  ErrorCode.AlreadyChosen,
  ErrorCode.NotAllowedNow,
  ErrorCode.TimeOut,
]);

/** How late past its deadline a search's answer is still waited for: the worker's message and a little jitter. */
const SEARCH_GRACE_MS = 30;
/** Whose a game is stays known this long after its last step: a rematch asked for later counts as a game of its own. */
const OWNER_KEPT_MS = 10 * 60_000;
/** A step refused by a full lane is tried again this much later. */
const FULL_RETRY_MS = 250;

export class BotDriver implements MatchObserver {
  private readonly driving = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** The address that started each game (and its rematches), whose turn in the lanes it waits for. */
  private readonly owners = new Map<string, { key: string; usedAt: number }>();
  /** Live games with a computer seat seen here, with when last seen: a person's move in one yields to people's (move-priority.ts). */
  private readonly computerGames = new Map<string, number>();
  /** The version each of the computer's moves in flight is made at: its own move needs no look afterwards. */
  private readonly ownMoves = new Map<string, number>();
  private readonly database: YieldingLane;
  private readonly searches: FairLane;
  private readonly sweeps: PeriodicTask;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly matches: MatchService,
    private readonly engine: () => EnginePool,
    private readonly presence: PresenceService,
    private readonly log: FastifyBaseLogger,
    private readonly settings: BotSettings,
    people: PeopleFirst,
    private readonly timer: SearchTimer = () => {},
  ) {
    this.sweeps = new PeriodicTask(() => this.sweep(), settings.sweepEveryMs);
    this.database = new YieldingLane(settings.database, people);
    // One address holds all but one of the engine's threads at most: a search of anyone else's starts at once.
    this.searches = new FairLane(settings.searchSlots, Math.max(1, settings.searchSlots - 1));
  }

  /** A game just started by a person at `address`. */
  started(matchId: string, address: string): void {
    this.owners.set(matchId, { key: address, usedAt: Date.now() });
    this.computerGames.set(matchId, Date.now());
    this.wake(matchId);
  }

  start(): void {
    this.matches.observe(this);
    this.sweeps.start();
    void this.sweeps.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.sweeps.stop();
    await Promise.allSettled([...this.driving.values()]);
  }

  /** People's matches (and their rematches, between the same players) cost the computer nothing, not even a read. */
  changed(match: { id: string; status: string; seatsComputer: boolean }, envelopes: MatchEventEnvelope[]): void {
    if (!match.seatsComputer) return;
    if (match.status === 'ended') this.computerGames.delete(match.id);
    else this.computerGames.set(match.id, Date.now());
    if (this.ownMove(match, envelopes)) return;
    const owner = this.owners.get(match.id);
    for (const { event } of envelopes) {
      if (event.type !== 'rematch') continue;
      this.computerGames.set(event.matchId, Date.now());
      if (owner) this.owners.set(event.matchId, { key: owner.key, usedAt: Date.now() });
      this.wake(event.matchId);
    }
    this.wake(match.id);
  }

  /**
   * The computer's own move, the game going on: it is the person's turn, and
   * nothing is left to do but a claim, which the sweep looks for. Not looking
   * again spares a read of the match for every move it makes.
   */
  private ownMove(match: { id: string; status: string }, envelopes: MatchEventEnvelope[]): boolean {
    const from = this.ownMoves.get(match.id);
    return (
      from !== undefined &&
      match.status === 'playing' &&
      envelopes[0]?.version === from + 1 &&
      envelopes.every(({ event }) => event.type === 'moved')
    );
  }

  /** Whether a match has a computer seat, as far as this process has seen. */
  againstComputer = (matchId: string): boolean => this.computerGames.has(matchId);

  /** Looks at the match soon and does what the computer has to do there, if anything. */
  wake(matchId: string): void {
    if (this.stopped) return;
    if (this.driving.has(matchId)) {
      this.again.add(matchId);
      return;
    }
    const run = (async () => {
      do {
        this.again.delete(matchId);
        await this.step(matchId).catch((error: unknown) => {
          // The lane is full: the step is tried again shortly, as it would have waited anyway.
          if (error instanceof LaneFull) setTimeout(() => this.wake(matchId), FULL_RETRY_MS).unref();
          else logFailure(this.log, error, { matchId }, 'computer player failed');
        });
      } while (this.again.has(matchId) && !this.stopped);
    })().finally(() => {
      this.driving.delete(matchId);
      // A change that arrived after the last look but before this point is not lost.
      if (this.again.has(matchId)) this.wake(matchId);
    });
    this.driving.set(matchId, run);
  }

  /** Live games with a computer seat, in case a change was missed here (a restart, another process). */
  private async sweep(): Promise<void> {
    const forgotten = Date.now() - OWNER_KEPT_MS;
    for (const [matchId, owner] of this.owners) if (owner.usedAt < forgotten) this.owners.delete(matchId);
    for (const [matchId, seenAt] of this.computerGames) if (seenAt < forgotten) this.computerGames.delete(matchId);
    try {
      const live = await this.db.prisma.match.findMany({
        where: {
          status: { in: ['opener', 'playing'] },
          OR: [{ player0: { botLevel: { not: null } } }, { player1: { botLevel: { not: null } } }],
        },
        select: { id: true },
        orderBy: { createdAt: 'asc' },
        take: 500,
      });
      // A game being looked at now needs no second look.
      for (const { id } of live) {
        this.computerGames.set(id, Date.now());
        if (!this.driving.has(id)) this.wake(id);
      }
    } catch (error) {
      logFailure(this.log, error, {}, 'computer games sweep failed');
    }
  }

  /** Whose turn in the lanes this game waits for: its starter's address, or the game alone when unknown here (a restart, another process). */
  private ownerOf(matchId: string): string {
    const owner = this.owners.get(matchId);
    if (!owner) return `match:${matchId}`;
    owner.usedAt = Date.now();
    return owner.key;
  }

  /** Database work of the computer, in its lane; `task` is a MatchService call or a read. */
  private async inLane<T>(owner: string, task: () => Promise<T>): Promise<T> {
    return (await this.database.run(owner, task)) as T;
  }

  private async step(matchId: string): Promise<void> {
    // The computer's turn is counted from here, its wait for the lanes included.
    const began = Date.now();
    const owner = this.ownerOf(matchId);
    const match = await this.inLane(owner, () => loadStep(this.db, matchId));
    if (!match) return;
    const seat: Seat | null = match.player0?.botLevel != null ? 0 : match.player1?.botLevel != null ? 1 : null;
    if (seat === null) return;
    const seated = seat === 0 ? match.player0! : match.player1!;
    const bot: BotPlayer = { id: seated.id, name: seated.name, botLevel: seated.botLevel! };
    try {
      // The workers start now, during the opener, rather than on the computer's first move, whose time they would take.
      if (match.status !== 'ended') this.engine();
      if (match.status === 'opener') await this.chooseHand(owner, bot, match, seat);
      else if (match.status === 'playing') await this.play(owner, began, bot, match, seat);
      else if (match.status === 'ended') await this.offerRematch(owner, bot, match, seat);
    } catch (error) {
      if (error instanceof ServiceError && MOVED_ON.has(error.code)) return;
      throw error;
    }
  }

  /** A hand drawn uniformly at random, stored like a person's and as hidden until both have chosen. */
  private async chooseHand(owner: string, bot: BotPlayer, match: StepMatch, seat: Seat): Promise<void> {
    const last = match.rounds.at(-1);
    const open = last && (last.choice0 === null || last.choice1 === null) ? last : undefined;
    if (open && (seat === 0 ? open.choice0 : open.choice1) !== null) return;
    await this.inLane(owner, () => this.matches.chooseHand(bot, { matchId: match.id, choice: hand.options[randomInt(hand.options.length)]! }));
  }

  private async play(owner: string, began: number, bot: BotPlayer, match: StepMatch, seat: Seat): Promise<void> {
    const position = match.position as unknown as Position;
    const now = new Date();
    if (position.toMove !== seat) {
      // A person gone past the grace period, or idle past the limit: the computer claims, as a person would.
      const claimableAt = this.idleClaim(match);
      const since = claimableAt(match, otherSeat(seat));
      if (since && since <= now) await this.inLane(owner, () => this.matches.claim(bot, match.id, claimableAt));
      return;
    }
    const remainingMs = match.clock0Ms === null ? null : remainingAt(match, seat, seat, now);
    const deadlineAt = began + thinkBudgetMs({ thinkMs: this.settings.thinkMs, remainingMs, incrementMs: match.room.incrementMs, moveDelayMs: this.settings.moveDelayMs });
    const rules = match.rules as unknown as RuleOptions;
    const first = match.first as Player;
    const moves: Move[] = match.moves.map((m) => ({ square: m.square, dir: m.dir === 1 ? 1 : -1 }));
    const searched = await this.search(owner, { rules, first, moves }, bot.botLevel as Level, deadlineAt, remainingMs, match.id);
    this.timer(bot.botLevel, (Date.now() - began) / 1000, searched?.nodes ?? null);
    // The computer never forfeits on the engine's account: any legal move beats a lost clock.
    const move = searched?.move ?? anyLegalMove(rules, first, moves);
    const delay = Math.min(this.settings.moveDelayMs, remainingMs === null ? Infinity : remainingMs / 50) - (Date.now() - began);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (this.stopped) return;
    const ply = moves.length + 1;
    await this.inLane(owner, async () => {
      this.ownMoves.set(match.id, match.version);
      try {
        await this.matches.move(bot, { matchId: match.id, moveId: `computer-${ply}-${randomUUID()}`, version: match.version, square: move.square, dir: move.dir }, new Date());
      } finally {
        this.ownMoves.delete(match.id);
      }
    });
  }

  /**
   * The engine's move by `deadlineAt`, or undefined. A search that has not
   * got a place by then is never asked; one that has, but has not answered
   * (a worker starved of CPU), is not waited for: it keeps its place until
   * it ends, by its own deadline, so the engine's queue never grows.
   */
  private async search(
    owner: string,
    game: { rules: RuleOptions; first: Player; moves: Move[] },
    level: Level,
    deadlineAt: number,
    remainingMs: number | null,
    matchId: string,
  ): Promise<{ move: Move; nodes: number } | undefined> {
    // The slack covers a new worker's start, and a worker so starved that it missed the deadline.
    const slack = remainingMs === null ? 30_000 : Math.min(30_000, Math.max(500, remainingMs / 10));
    const answer = this.searches
      .run(
        owner,
        async () => {
          const timeMs = Math.max(1, deadlineAt - Date.now());
          const { move, nodes } = await this.engine().bestMove(game, { level, timeMs, deadlineAt, seed: randomInt(2 ** 31), limitMs: timeMs + slack });
          return { move, nodes };
        },
        deadlineAt,
      )
      .catch((error: unknown) => {
        if (error instanceof EngineError) this.log.warn({ err: error, matchId }, 'engine gave no move; the computer plays a legal one');
        else logFailure(this.log, error, { matchId }, 'search failed');
        return undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadlineAt + SEARCH_GRACE_MS - Date.now()))));
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * When the person may be claimed against: gone past the grace (the
   * presence's rule), or, in an untimed game, to move for longer than the
   * idle limit since the last move, which nothing else bounds while their
   * socket stays open (a clock bounds a timed game, the first move has its
   * own deadline). The last move's time holds only at the version it was
   * read at: the claim is decided again from the row in its transaction, and
   * a move made meanwhile leaves only the presence's rule.
   */
  private idleClaim(step: StepMatch): (match: MatchRow, seat: Seat) => Date | null {
    const idleAt = step.clock0Ms === null && step.lastMoveAt ? new Date(step.lastMoveAt.getTime() + this.settings.idleMs) : null;
    return (match, seat) => {
      const gone = this.presence.claimableAt(match, seat);
      if (!idleAt || match.version !== step.version) return gone;
      return gone && gone < idleAt ? gone : idleAt;
    };
  }

  private async offerRematch(owner: string, bot: BotPlayer, match: StepMatch, seat: Seat): Promise<void> {
    const offered = seat === 0 ? match.rematch0 : match.rematch1;
    if (offered || match.nextMatchId || match.endReason === 'abort') return;
    await this.inLane(owner, () => this.matches.rematch(bot, match.id));
  }

}

function otherSeat(seat: Seat): Seat {
  return seat === 0 ? 1 : 0;
}

function anyLegalMove(rules: RuleOptions, first: Player, moves: readonly Move[]): Move {
  let state = newGame({ rules, first });
  for (const move of moves) {
    const next = play(state, move);
    if (!next.ok) throw new Error(`stored move is illegal: ${next.code}`);
    state = next.state;
  }
  const legal = legalMoves(state);
  return legal[randomInt(legal.length)]!;
}
