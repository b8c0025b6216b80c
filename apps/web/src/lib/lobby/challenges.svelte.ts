import type { Challenge, ChallengeAccepted, ChallengeGone, ClientPayload } from '@oanquan/protocol';
import type { Failure } from '../net/client-error.js';
import { gameSocket, type GameSocket } from '../net/game-socket.svelte.js';

export type ChallengeTerms = ClientPayload<'challenge:open'>;

export interface ChallengeHandlers {
  /** A direct challenge to us arrived. */
  received(challenge: Challenge): void;
  /** A challenge of ours was taken, or we took one: go to its room. */
  accepted(accepted: ChallengeAccepted): void;
  /** A direct challenge of ours ended unanswered (declined, lapsed, or its target left). */
  ended(challenge: Challenge, reason: ChallengeGone['reason']): void;
  problem(problem: Failure): void;
}

/**
 * The tab's challenges: the lobby's open ones while a page follows it, the
 * direct ones sent to us (shown on every page), and the ones we sent.
 */
export class Challenges {
  /** Open challenges, newest first, while the lobby is followed. */
  lobby = $state.raw<readonly Challenge[]>([]);
  /** Direct challenges to us, waiting for our answer. */
  incoming = $state.raw<readonly Challenge[]>([]);
  /** Our own direct challenges, waiting for theirs. */
  outgoing = $state.raw<readonly Challenge[]>([]);
  private following = 0;
  private handlers: ChallengeHandlers | null = null;
  /** Taken challenges already followed to their room: the event and the acknowledgement both say so. */
  private readonly taken = new Set<string>();

  constructor(private readonly socket: GameSocket) {}

  /** Listens for the whole life of the tab (the layout starts it once). */
  start(handlers: ChallengeHandlers): () => void {
    this.handlers = handlers;
    const stops = [
      this.socket.on('lobby:added', (challenge) => {
        if (this.following > 0) this.lobby = [challenge, ...this.lobby.filter((c) => c.id !== challenge.id)];
      }),
      this.socket.on('lobby:removed', ({ id }) => {
        this.lobby = this.lobby.filter((c) => c.id !== id);
      }),
      this.socket.on('challenge:received', (challenge) => {
        this.incoming = [...this.incoming.filter((c) => c.id !== challenge.id), challenge];
        this.handlers?.received(challenge);
      }),
      this.socket.on('challenge:gone', ({ id, reason }) => {
        this.incoming = this.incoming.filter((c) => c.id !== id);
        const mine = this.outgoing.find((c) => c.id === id);
        this.outgoing = this.outgoing.filter((c) => c.id !== id);
        if (mine && reason !== 'cancelled') this.handlers?.ended(mine, reason);
      }),
      this.socket.on('challenge:accepted', (accepted) => {
        this.incoming = this.incoming.filter((c) => c.id !== accepted.id);
        this.outgoing = this.outgoing.filter((c) => c.id !== accepted.id);
        this.went(accepted);
      }),
      // What happened while disconnected is read again.
      this.socket.onReconnect(() => {
        if (this.following > 0) void this.readLobby();
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  /** A page shows the lobby: follow it until the returned function is called. */
  followLobby(): () => void {
    this.following++;
    if (this.following === 1) void this.readLobby();
    return () => {
      this.following--;
      if (this.following === 0) {
        this.lobby = [];
        void this.socket.request('lobby:unwatch', {});
      }
    };
  }

  private async readLobby(): Promise<void> {
    const answer = await this.socket.request('lobby:watch', {});
    if (answer.ok) this.lobby = answer.challenges;
    else this.handlers?.problem(answer);
  }

  async offer(terms: ChallengeTerms): Promise<Failure | null> {
    const answer = await this.socket.request('challenge:open', terms);
    if (!answer.ok) return answer;
    if (this.following > 0 && !this.lobby.some((c) => c.id === answer.challenge.id)) this.lobby = [answer.challenge, ...this.lobby];
    return null;
  }

  async challenge(to: string, terms: ChallengeTerms): Promise<Failure | null> {
    const answer = await this.socket.request('challenge:direct', { ...terms, to });
    if (!answer.ok) return answer;
    this.outgoing = [...this.outgoing, answer.challenge];
    return null;
  }

  async cancel(id: string): Promise<void> {
    const answer = await this.socket.request('challenge:cancel', { id });
    this.outgoing = this.outgoing.filter((c) => c.id !== id);
    this.lobby = this.lobby.filter((c) => c.id !== id);
    if (!answer.ok) this.handlers?.problem(answer);
  }

  async accept(id: string): Promise<void> {
    const answer = await this.socket.request('challenge:accept', { id });
    if (answer.ok) return this.went({ id, roomCode: answer.roomCode, matchId: answer.matchId });
    this.incoming = this.incoming.filter((c) => c.id !== id);
    this.lobby = this.lobby.filter((c) => c.id !== id);
    this.handlers?.problem(answer);
  }

  private went(accepted: ChallengeAccepted): void {
    if (this.taken.has(accepted.id)) return;
    this.taken.add(accepted.id);
    this.handlers?.accepted(accepted);
  }

  async decline(id: string): Promise<void> {
    this.incoming = this.incoming.filter((c) => c.id !== id);
    const answer = await this.socket.request('challenge:decline', { id });
    if (!answer.ok) this.handlers?.problem(answer);
  }
}

let shared: Challenges | undefined;

/** The tab's challenges, over its one connection (browser only). */
export function challenges(): Challenges {
  shared ??= new Challenges(gameSocket());
  return shared;
}
