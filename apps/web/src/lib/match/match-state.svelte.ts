import { legalMoves, type Move, type State } from '@oanquan/rules';
import type { MatchEventEnvelope, MatchSnapshot, Seat } from '@oanquan/protocol';
import { stateOfSnapshot, type FollowedMove } from '@oanquan/protocol/moved';
import { applyEvent } from './apply-event.js';
import { EnvelopeBuffer } from './envelope-buffer.js';

export interface MatchListener {
  /** An event was applied; `before` is the snapshot it was applied to, `ply` what a move did. */
  applied(envelope: MatchEventEnvelope, before: MatchSnapshot, ply: FollowedMove | null): void;
  /** Versions are missing between what we have and what arrived: ask the server. */
  gap(): void;
  /** A move the rules refuse on what is held: this client lost track, only a snapshot can tell. */
  lost(): void;
}

/**
 * One match as this client knows it: the snapshot, advanced event by event
 * in version order (each move played with the rules), and the viewer's seat.
 */
export class MatchState {
  snapshot = $state.raw<MatchSnapshot>(undefined as unknown as MatchSnapshot);
  seat = $state.raw<Seat | null>(null);
  private readonly buffer = new EnvelopeBuffer();
  /** The rules state of the snapshot's position, which the next move is played on. */
  private game: State;

  constructor(
    snapshot: MatchSnapshot,
    seat: Seat | null,
    private readonly listener: MatchListener,
  ) {
    this.snapshot = snapshot;
    this.game = stateOfSnapshot(snapshot);
    this.seat = seat;
  }

  get id(): string {
    return this.snapshot.matchId;
  }

  get version(): number {
    return this.snapshot.version;
  }

  receive(envelope: MatchEventEnvelope): void {
    if (envelope.matchId !== this.snapshot.matchId) return;
    const { ready, gap } = this.buffer.accept(this.snapshot.version, envelope);
    this.applyAll(ready);
    if (gap) this.listener.gap();
  }

  /** The server's full picture, after a long absence: whatever was held back is dropped. */
  replace(snapshot: MatchSnapshot): void {
    if (snapshot.matchId !== this.snapshot.matchId || snapshot.version < this.snapshot.version) return;
    this.snapshot = snapshot;
    this.game = stateOfSnapshot(snapshot);
    this.applyAll(this.buffer.drain(this.snapshot.version).ready);
  }

  /**
   * The seat whose turn it is while the game runs. A ply that ends the game
   * arrives before the match's `ended` event, so the position says it too.
   */
  get toMove(): Seat | null {
    return this.snapshot.status === 'playing' && this.snapshot.position.status === 'playing' ? this.snapshot.position.toMove : null;
  }

  get myTurn(): boolean {
    return this.seat !== null && this.toMove === this.seat;
  }

  /** The moves the viewer may make now (the rules list them; the board only shows them). */
  get legal(): readonly Move[] {
    return this.myTurn ? legalMoves(this.snapshot.position) : [];
  }

  private applyAll(envelopes: MatchEventEnvelope[]): void {
    for (const envelope of envelopes) {
      const before = this.snapshot;
      const applied = applyEvent({ snapshot: before, game: this.game }, envelope);
      if (!applied) return this.listener.lost();
      this.snapshot = applied.snapshot;
      this.game = applied.game;
      this.listener.applied(envelope, before, applied.ply);
    }
  }
}
