import type { ArenaView } from '@oanquan/protocol';
import type { Failure } from '../net/client-error.js';
import type { GameSocket } from '../net/game-socket.svelte.js';
import { identity } from '../net/identity.svelte.js';
import { followArena } from './arena-follow.svelte.js';

/** One arena's page: its view, kept live by `arena:standings`, and the join/pause button. */
export class ArenaState {
  view = $state.raw<ArenaView | null>(null);
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
      this.socket.on('arena:standings', (view) => {
        if (view.code === this.code) this.show(view);
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
    const answer = await this.socket.request('arena:watch', { code: this.code });
    if (answer.ok) this.show(answer.arena);
    else this.problem = answer;
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
