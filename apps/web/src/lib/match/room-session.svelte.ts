import type { Move } from '@oanquan/rules';
import type { ClientPayload, Hand, MatchEventEnvelope, MatchSnapshot, Presence, Seat } from '@oanquan/protocol';
import { unpackEnvelope, type FollowedMove } from '@oanquan/protocol/moved';
import { BoardAnimator } from '../board/board-animator.svelte.js';
import { errorText } from '../i18n/error-text.js';
import type { I18n } from '../i18n/i18n.svelte.js';
import { ClientErrorCode, failure, type Failure } from '../net/client-error.js';
import { resendWhileRetryable } from '../net/retry.js';
import type { GameSocket } from '../net/game-socket.svelte.js';
import type { Settings } from '../settings/settings.svelte.js';
import type { Notices } from '../ui/notices.svelte.js';
import { ClockOffset, countsFrom } from './clock.js';
import { describePly } from './describe-ply.js';
import { MatchState } from './match-state.svelte.js';
import { newMoveId } from './move-id.js';
import { seatNames } from './names.js';

/**
 * How long the first game of a rated pairing stays in sight once its return
 * game has started, unless the player goes on earlier: the return game's
 * first move is due within the server's first-move time (30 s by default).
 */
export const RETURN_GAME_PAUSE_MS = 10_000;

/** How many times one move is sent before the player is told it failed. */
const MOVE_TRIES = 5;

/** The request failed on the way, not at the server: the move may or may not have arrived. */
function unanswered(answer: Failure): boolean {
  return answer.code === ClientErrorCode.Offline || answer.code === ClientErrorCode.Timeout || answer.code === ClientErrorCode.Network;
}

export type Busy = 'move' | 'opener' | 'resign' | 'abort' | 'claim' | 'rematch';
type Action = 'resign' | 'abort' | 'claim' | 'rematch';

interface Deps {
  socket: GameSocket;
  i18n: I18n;
  notices: Notices;
  settings: Settings;
}

/**
 * A room as one tab sees it: joins it, keeps its current match up to date
 * from the server's events (resyncing on a gap or a reconnection), follows
 * rematches, and sends the viewer's intents. Every refusal becomes a notice.
 */
export class RoomSession {
  phase = $state<'joining' | 'ready' | 'failed'>('joining');
  problem = $state.raw<Failure | null>(null);
  match = $state.raw<MatchState | null>(null);
  presence = $state.raw<Presence | null>(null);
  busy = $state<Busy | null>(null);
  /** What a screen reader hears after each ply. */
  announcement = $state('');
  /** The hand this viewer showed in the open opener round. */
  myHand = $state.raw<{ matchId: string; round: number; hand: Hand } | null>(null);
  /** Matches of this room seen before the current one (rematches). */
  earlier = $state.raw<string[]>([]);
  /** The return game of a rated pairing that has started while its first game's result is still shown. */
  returnGame = $state.raw<string | null>(null);
  private returnTimer: ReturnType<typeof setTimeout> | undefined;
  /** Local clock minus the server's, estimated from the latest events. */
  clockOffset = $state(0);
  private readonly offset = new ClockOffset();
  readonly animator: BoardAnimator;
  private readonly stops: Array<() => void> = [];
  private syncing = false;
  private syncAgain = false;
  /**
   * A move sent whose answer never came (the connection or its server went
   * away): sent again, with the same moveId, once the match is known to still
   * wait for it. The server records a moveId once, so a move that did arrive
   * is not played twice.
   */
  private unanswered: { payload: ClientPayload<'move'>; tries: number } | null = null;

  constructor(
    readonly code: string,
    private readonly deps: Deps,
  ) {
    this.animator = new BoardAnimator(() => deps.settings.motionFactor);
  }

  start(): () => void {
    const { socket } = this.deps;
    this.stops.push(
      socket.on('match:event', (wire) => this.onEnvelope(unpackEnvelope(wire))),
      socket.on('presence', (presence) => {
        if (presence.matchId === this.match?.id) this.presence = presence;
      }),
      socket.onReconnect(() => void this.catchUp()),
    );
    void this.join();
    return () => {
      for (const stop of this.stops.splice(0)) stop();
      clearTimeout(this.returnTimer);
      this.animator.stop();
    };
  }

  async join(): Promise<void> {
    const { socket } = this.deps;
    if (!(await socket.whenConnected())) {
      this.fail(socket.problem ?? failure(ClientErrorCode.Offline, 'Not connected'));
      return;
    }
    const answer = await resendWhileRetryable(() => socket.request('room:join', { code: this.code }));
    if (!answer.ok) {
      this.fail(answer);
      return;
    }
    this.setMatch(answer.snapshot, answer.seat);
  }

  async move(move: Move): Promise<void> {
    const match = this.match;
    if (!match || this.busy) return;
    this.busy = 'move';
    await this.send({ matchId: match.id, moveId: newMoveId(), version: match.version, square: move.square, dir: move.dir }, 1);
  }

  private async send(payload: ClientPayload<'move'>, tries: number): Promise<void> {
    const match = this.match;
    // Refused for the server's state of the moment (BUSY, UNAVAILABLE): the same payload again, so it counts once.
    const answer = await resendWhileRetryable(() => this.deps.socket.request('move', payload));
    if (!answer.ok && unanswered(answer) && tries < MOVE_TRIES) {
      // Still on its way as far as the player can tell: the board stays busy until it is settled.
      this.unanswered = { payload, tries };
      // Connected but no answer in time: settle it now; after a lost connection, the reconnection does.
      if (this.deps.socket.connected) void this.settleUnanswered();
      return;
    }
    this.unanswered = null;
    this.busy = null;
    if (!match) return;
    if (!answer.ok) {
      this.reject(answer);
      void this.resync();
    } else if (this.match === match && answer.version > match.version) {
      void this.resync();
    }
  }

  async choose(hand: Hand): Promise<void> {
    const match = this.match;
    if (!match || this.busy) return;
    this.busy = 'opener';
    const round = match.snapshot.opener.rounds.length + 1;
    const answer = await this.deps.socket.request('opener:choose', { matchId: match.id, choice: hand });
    this.busy = null;
    if (answer.ok) this.myHand = { matchId: match.id, round, hand };
    else {
      this.reject(answer);
      void this.resync();
    }
  }

  async act(action: Action): Promise<void> {
    const match = this.match;
    if (!match || this.busy) return;
    this.busy = action;
    const answer = await this.deps.socket.request(action, { matchId: match.id });
    this.busy = null;
    if (!answer.ok) this.reject(answer);
    void this.resync();
  }

  /** Asks the server for everything after our version; one request at a time. */
  async resync(): Promise<void> {
    const match = this.match;
    if (!match) return this.join();
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    try {
      do {
        this.syncAgain = false;
        const answer = await resendWhileRetryable(() => this.deps.socket.request('sync', { matchId: match.id, version: match.version }));
        if (!answer.ok) {
          this.reject(answer);
          return;
        }
        if ('events' in answer) {
          for (const wire of answer.events) match.receive(unpackEnvelope(wire));
        } else {
          this.animator.stop();
          match.replace(answer.snapshot);
        }
      } while (this.syncAgain && this.match === match);
    } finally {
      this.syncing = false;
    }
  }

  private async catchUp(): Promise<void> {
    this.problem = null;
    this.deps.notices.show(this.deps.i18n.t('conn.back'), 'info');
    await (this.match ? this.resync() : this.join());
    await this.settleUnanswered();
  }

  /** After a resync: the unanswered move is sent again if the match still waits for it, else it arrived (or was overtaken). */
  private async settleUnanswered(): Promise<void> {
    const pending = this.unanswered;
    if (!pending) return;
    if (!this.deps.socket.connected) return;
    await this.resync();
    if (this.unanswered !== pending) return;
    const match = this.match;
    if (match?.id === pending.payload.matchId && match.version === pending.payload.version && match.myTurn) {
      await this.send(pending.payload, pending.tries + 1);
      return;
    }
    this.unanswered = null;
    this.busy = null;
  }

  private setMatch(snapshot: MatchSnapshot, seat: Seat | null): void {
    // A timed snapshot's clocks are as of the server's "now": the offset is known before any event.
    if (snapshot.clocks) this.clockOffset = this.offset.sample(snapshot.clocks.asOf) ?? this.clockOffset;
    const previous = this.match;
    if (previous && previous.id === snapshot.matchId) {
      previous.seat = seat;
      this.animator.stop();
      previous.replace(snapshot);
      this.phase = 'ready';
      return;
    }
    if (previous) this.earlier = [...this.earlier, previous.id];
    this.animator.stop();
    this.presence = null;
    this.problem = null;
    this.match = new MatchState(snapshot, seat, {
      applied: (envelope, before, ply) => this.onApplied(envelope, before, ply),
      gap: () => void this.resync(),
      lost: () => void this.join(),
    });
    this.phase = 'ready';
  }

  private onEnvelope(envelope: MatchEventEnvelope): void {
    if (envelope.matchId !== this.match?.id) return;
    this.clockOffset = this.offset.sample(envelope.at) ?? this.clockOffset;
    this.match.receive(envelope);
  }

  private onApplied(envelope: MatchEventEnvelope, before: MatchSnapshot, ply: FollowedMove | null): void {
    const { event } = envelope;
    const match = this.match;
    if (!match) return;
    if (event.type === 'moved' && ply) {
      // In a timed game the next clock starts when the sowing allowance ends: the sowing is shown by then.
      const clocks = event.clocks;
      const withinMs = clocks ? () => (clocks.running === null ? Infinity : countsFrom(clocks, this.clockOffset) - Date.now()) : undefined;
      this.animator.play(before.position, ply.events, ply.state.position, { withinMs });
      const names = seatNames(match.snapshot.seats, this.deps.i18n.t('player.anonymous'), this.deps.i18n.t);
      const words = describePly(this.deps.i18n.t, ply.move, ply.events, names);
      this.announcement = match.myTurn ? `${words} ${this.deps.i18n.t('say.yourTurn')}` : words;
    } else if (event.type === 'rematch' && before.pairing?.game === 1) {
      this.returnGame = event.matchId;
      this.returnTimer = setTimeout(() => void this.goToNext(), RETURN_GAME_PAUSE_MS);
    } else if (event.type === 'rematch') {
      void this.goToNext();
    }
  }

  /** Joins the room's next match (a rematch, a pairing's return game). */
  async goToNext(): Promise<void> {
    const returnGame = this.returnGame !== null;
    clearTimeout(this.returnTimer);
    this.returnGame = null;
    // Events of the new match may arrive before the join's answer; a resync picks them up.
    await this.join();
    await this.resync();
    this.deps.notices.show(this.deps.i18n.t(returnGame ? 'pairing.started' : 'room.newMatch'), 'info');
  }

  private fail(problem: Failure): void {
    this.problem = problem;
    if (!this.match) this.phase = 'failed';
    else this.reject(problem);
  }

  private reject(problem: Failure): void {
    this.deps.notices.show(errorText(this.deps.i18n, problem));
  }
}
