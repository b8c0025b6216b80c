import type { ArenaView } from '@oanquan/protocol';
import type { Failure } from '../net/client-error.js';
import type { GameSocket } from '../net/game-socket.svelte.js';
import { identity } from '../net/identity.svelte.js';
import { followArena } from './arena-follow.svelte.js';

/**
 * One arena's page: its view, one page of standings at a time, kept live by
 * `arena:standings` (the first page, pushed to everyone watching), and the
 * join/pause button.
 */
export class ArenaState {
  view = $state.raw<ArenaView | null>(null);
  /** The page of standings shown, from 1. */
  page = $state(1);
  problem = $state.raw<Failure | null>(null);
  busy = $state(false);
  /** How far the server's clock is ahead of this browser's, so countdowns agree with the server. */
  skewMs = $state(0);

  constructor(
    private readonly socket: GameSocket,
    readonly code: string,
  ) {}

  start(): () => void {
    const stops = [
      this.socket.on('arena:standings', (pushed) => {
        if (pushed.code === this.code) this.show(this.merged(pushed));
      }),
      this.socket.onReconnect(() => void this.watch()),
    ];
    void this.watch();
    return () => {
      for (const stop of stops) stop();
      void this.socket.request('arena:unwatch', { code: this.code });
    };
  }

  private async watch(): Promise<void> {
    const answer = await this.socket.request('arena:watch', { code: this.code, page: this.page });
    if (answer.ok) this.show(answer.arena);
    else this.problem = answer;
  }

  /** Another page of the standings; pushes keep the first page only. */
  async turn(page: number): Promise<void> {
    this.page = Math.max(1, page);
    await this.watch();
  }

  /** A push carries the first page and nobody's own line: the page shown and this player's line are kept unless it holds them. */
  private merged(pushed: ArenaView): ArenaView {
    const shown = this.view;
    const standings = this.page === 1 || !shown ? pushed.standings : shown.standings;
    const me = shown?.me ? (pushed.standings.find((s) => s.id === shown.me!.id) ?? shown.me) : null;
    return { ...pushed, page: this.page, standings, me };
  }

  private show(view: ArenaView): void {
    this.skewMs = Date.parse(view.now) - Date.now();
    this.view = view;
    if (view.phase === 'finished') followArena(null);
  }

  join(): Promise<void> {
    followArena(this.code);
    return this.send('join');
  }

  pause(): Promise<void> {
    followArena(null);
    return this.send('pause');
  }

  private async send(action: 'join' | 'pause'): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const answer = await identity().request<ArenaView>(`/api/arenas/${this.code}/${action}`, { method: 'POST' });
    this.busy = false;
    if (answer.ok) this.show(answer.data);
    else this.problem = answer;
  }
}
