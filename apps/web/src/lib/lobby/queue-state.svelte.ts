import type { QueueMatched, QueuePool, QueueStatus } from '@oanquan/protocol';
import type { Failure } from '../net/client-error.js';
import type { GameSocket } from '../net/game-socket.svelte.js';

export type QueuePhase = 'idle' | 'joining' | 'searching' | 'leaving' | 'matched';

/** The "Play" button: waiting in the public queue until the server pairs us. */
export class QueueState {
  phase = $state<QueuePhase>('idle');
  pool = $state<QueuePool>('5+3');
  /** What was asked for (unset: the server's choice), sent again when rejoining after a reconnection. */
  rated = $state<boolean | undefined>(undefined);
  status = $state.raw<QueueStatus | null>(null);
  /** When this wait began (local time). */
  since = $state(0);

  constructor(
    private readonly socket: GameSocket,
    private readonly handlers: { matched(matched: QueueMatched): void; problem(problem: Failure): void },
  ) {}

  start(): () => void {
    const stops = [
      this.socket.on('queue:status', (status) => {
        if (this.phase === 'searching' || this.phase === 'joining') this.status = status;
      }),
      this.socket.on('queue:matched', (matched) => {
        if (this.phase === 'idle' || this.phase === 'matched') return;
        this.phase = 'matched';
        this.handlers.matched(matched);
      }),
      // The server forgets a waiting player whose connection dropped; join again.
      this.socket.onReconnect(() => {
        if (this.phase === 'searching') void this.send();
      }),
    ];
    return () => {
      for (const stop of stops) stop();
      if (this.phase === 'searching' || this.phase === 'joining') void this.socket.request('queue:leave', {});
    };
  }

  /** `rated` unset lets the server choose: rated for an account, casual for a guest. */
  async join(pool: QueuePool, rated?: boolean): Promise<void> {
    if (this.phase !== 'idle') return;
    this.pool = pool;
    this.rated = rated;
    this.status = null;
    this.since = Date.now();
    this.phase = 'joining';
    await this.send();
  }

  async cancel(): Promise<void> {
    if (this.phase !== 'searching' && this.phase !== 'joining') return;
    this.phase = 'leaving';
    const answer = await this.socket.request('queue:leave', {});
    if (this.phase !== 'leaving') return;
    this.phase = 'idle';
    if (!answer.ok) this.handlers.problem(answer);
  }

  private async send(): Promise<void> {
    const answer = await this.socket.request('queue:join', this.rated === undefined ? { pool: this.pool } : { pool: this.pool, rated: this.rated });
    if (this.phase === 'matched' || this.phase === 'leaving') return;
    if (answer.ok) {
      this.phase = 'searching';
    } else {
      this.phase = 'idle';
      this.handlers.problem(answer);
    }
  }
}
