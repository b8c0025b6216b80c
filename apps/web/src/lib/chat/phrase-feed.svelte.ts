import type { PhraseId, PhraseMessage } from '@oanquan/protocol';
import type { Answer, GameSocket } from '../net/game-socket.svelte.js';

/** How many phrases stay on screen: a reaction is of the moment. */
const KEPT = 4;

/**
 * The quick phrases of one match, as this person sees them. Muting is kept
 * here, for the match only: a muted player's phrases are dropped on arrival,
 * never shown, never sounded.
 */
export class PhraseFeed {
  messages = $state.raw<ReadonlyArray<PhraseMessage & { key: number }>>([]);
  muted = $state.raw<ReadonlySet<string>>(new Set());
  private matchId = '';
  private nextKey = 0;

  constructor(private readonly socket: GameSocket) {}

  /** Listens for phrases; returns the function that stops listening. */
  start(): () => void {
    return this.socket.on('phrase', (message) => this.receive(message));
  }

  /** A new match (a rematch) starts with no phrases and nobody muted. */
  follow(matchId: string): void {
    if (matchId === this.matchId) return;
    this.matchId = matchId;
    this.messages = [];
    this.muted = new Set();
  }

  say(phrase: PhraseId): Promise<Answer<'phrase:say'>> {
    return this.socket.request('phrase:say', { matchId: this.matchId, phrase });
  }

  toggleMute(playerId: string): void {
    const muted = new Set(this.muted);
    if (!muted.delete(playerId)) muted.add(playerId);
    this.muted = muted;
    this.messages = this.messages.filter((message) => !muted.has(message.from.id));
  }

  private receive(message: PhraseMessage): void {
    if (message.matchId !== this.matchId || this.muted.has(message.from.id)) return;
    this.messages = [...this.messages.slice(1 - KEPT), { ...message, key: this.nextKey++ }];
  }
}
