import { randomUUID } from 'node:crypto';
import type { Move } from '@oanquan/rules';
import { isRetryable, resendPauseMs, unpackEnvelope, type Ack, type ClientEventName, type ClientToServerEvents, type MatchEventEnvelope, type MatchSnapshot, type Seat, type ServerToClientEvents } from '@oanquan/protocol';
import { io as connect, type Socket } from 'socket.io-client';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface Known {
  version: number;
  status: MatchSnapshot['status'];
  ply: number;
  toMove: Seat | null;
}

/**
 * A player written like apps/web's client: it reconnects by itself (also
 * when the server asks it to go), catches up by version after a reconnect or
 * a gap, and resends a move that was never acknowledged with the same
 * moveId, so that a move is recorded once whatever was lost on the way.
 * Unlike the web client, which only needs the board right, it resends such a
 * move even once the match has gone past it: the server answers a moveId it
 * recorded with that move's outcome, so every move that landed ends up
 * acknowledged (an answer lost to a slow machine or a cut connection
 * included), and one that did not is refused.
 */
export class ReconnectingPlayer {
  seat: Seat | null = null;
  matchId = '';
  readonly known: Known = { version: 0, status: 'waiting', ply: 0, toMove: null };
  /** Every acknowledged move: its moveId and the version it made. */
  readonly acked: Array<{ moveId: string; version: number; at: number }> = [];
  /** Versions as they were applied, one at a time (live or by sync), and those adopted from a snapshot. */
  readonly applied: number[] = [];
  readonly adopted: number[] = [];
  /** Versions of this match's events as the server pushed them, repeats included. */
  readonly pushed: number[] = [];
  readonly disconnects: number[] = [];
  readonly reconnects: number[] = [];
  /** Moves sent whose answer never came (the connection cut first, or 5 s passed). */
  unansweredMoves = 0;
  /** Moves whose answer the connection took with it, and when it went. */
  readonly cutOffMoves: Array<{ moveId: string; at: number }> = [];
  private retries = 0;
  private pending: ({ moveId: string; version: number } & Move) | undefined;
  private waiters: Array<() => void> = [];
  private syncing: Promise<void> | undefined;

  private constructor(readonly socket: ClientSocket) {
    socket.on('match:event', (wire) => this.receive(unpackEnvelope(wire)));
    socket.on('disconnect', (reason) => {
      this.disconnects.push(Date.now());
      // A server that drains asks its clients to go; Socket.IO does not retry that by itself.
      if (reason === 'io server disconnect') socket.connect();
      this.wake();
    });
    // Every connection after the first, however it came about, is a reconnection: time to catch up.
    socket.on('connect', () => {
      this.reconnects.push(Date.now());
      void this.catchUp();
    });
  }

  static async connect(url: string, token: string): Promise<ReconnectingPlayer> {
    const socket: ClientSocket = connect(url, {
      auth: { token },
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: 200,
      reconnectionDelayMax: 1000,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return new ReconnectingPlayer(socket);
  }

  /** Like the web client: a request while disconnected fails at once (null), as does one whose answer is lost. */
  async request<E extends ClientEventName>(event: E, payload: unknown): Promise<Ack<E> | null> {
    if (!this.socket.connected) return null;
    const timed = this.socket.timeout(5000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<Ack<E>> };
    return timed.emitWithAck(event, payload).catch(() => {
      if (event === 'move') this.unansweredMoves++;
      if (event === 'move' && !this.socket.connected) this.cutOffMoves.push({ moveId: (payload as { moveId: string }).moveId, at: Date.now() });
      return null;
    });
  }

  async join(code: string): Promise<void> {
    const ack = await this.request('room:join', { code });
    if (!ack?.ok || !('snapshot' in ack)) throw new Error(`join answered ${JSON.stringify(ack)}`);
    this.seat = ack.seat;
    this.matchId = ack.snapshot.matchId;
    this.adopt(ack.snapshot);
  }

  /** Plays its side of `script` (the whole game's moves) until the match ends, thinking `thinkMs` before each move; a spectator just watches it end. */
  async playOut(script: Move[], timeoutMs: number, thinkMs = 0): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let thoughtAt = -1;
    while (this.known.status !== 'ended' || this.pending) {
      if (Date.now() > deadline) throw new Error(`seat ${this.seat} gave up at ply ${this.known.ply} of ${script.length}, version ${this.known.version}, ${this.known.status}`);
      if (!this.socket.connected || this.syncing) {
        await this.changed();
        continue;
      }
      // A move whose answer never came goes again, whoever's turn it is now: its outcome first.
      if (this.pending) {
        await this.sendPending();
        continue;
      }
      // With the script played out, its `ended` event (a version of its own, pushed or synced after the last `moved`) is still to come.
      const move = script[this.known.ply];
      if (this.known.status !== 'playing' || this.known.toMove !== this.seat || !move) {
        await this.changed();
        continue;
      }
      if (thinkMs > 0 && thoughtAt !== this.known.version) {
        thoughtAt = this.known.version;
        await new Promise((resolve) => setTimeout(resolve, thinkMs));
        continue;
      }
      this.pending = { moveId: randomUUID(), version: this.known.version, ...move };
      await this.sendPending();
    }
  }

  private async sendPending(): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    const ack = await this.request('move', { matchId: this.matchId, ...pending });
    if (ack === null) return; // lost with the connection: resent after the reconnect
    if (!ack.ok && isRetryable(ack.code)) {
      // As the web client: the very same move again after a jittered pause (a draining node refuses new moves as UNAVAILABLE).
      this.retries++;
      await new Promise((resolve) => setTimeout(resolve, resendPauseMs(this.retries - 1)));
      return;
    }
    this.retries = 0;
    if (this.pending === pending) this.pending = undefined;
    if (!ack.ok) {
      // Refused for a match that moved on (or ended) without it: it never landed.
      if (ack.code !== 'STALE_VERSION' && ack.code !== 'NOT_YOUR_TURN' && ack.code !== 'NOT_IN_PLAY') throw new Error(`move refused: ${ack.code} ${ack.message}`);
    } else if (!this.acked.some((earlier) => earlier.moveId === pending.moveId)) {
      this.acked.push({ moveId: pending.moveId, version: ack.version, at: Date.now() });
    }
    if (!ack.ok || ack.version > this.known.version) await this.sync();
  }

  private async catchUp(): Promise<void> {
    await this.sync();
    // It never arrived, or its answer was lost: the same moveId either way, which the server plays or answers with its outcome.
    await this.sendPending();
    this.wake();
  }

  private sync(): Promise<void> {
    this.syncing ??= (async () => {
      try {
        for (;;) {
          const ack = await this.request('sync', { matchId: this.matchId, version: this.known.version });
          if (ack?.ok && 'events' in ack) {
            for (const wire of ack.events) this.apply(unpackEnvelope(wire));
            return;
          }
          if (ack?.ok && 'snapshot' in ack) return this.adopt(ack.snapshot);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      } finally {
        this.syncing = undefined;
        this.wake();
      }
    })();
    return this.syncing;
  }

  private receive(envelope: MatchEventEnvelope): void {
    if (envelope.matchId === this.matchId) this.pushed.push(envelope.version);
    if (envelope.matchId !== this.matchId || envelope.version <= this.known.version) return;
    if (envelope.version > this.known.version + 1) void this.sync();
    else this.apply(envelope);
  }

  private apply({ version, event }: MatchEventEnvelope): void {
    if (version !== this.known.version + 1) return;
    this.known.version = version;
    this.applied.push(version);
    if (event.type === 'started') Object.assign(this.known, { status: 'playing', toMove: event.first });
    // Turns alternate (R3): the move's ply and who moves next follow from the count.
    if (event.type === 'moved') Object.assign(this.known, { ply: this.known.ply + 1, toMove: this.known.toMove === 0 ? 1 : 0 });
    if (event.type === 'ended') this.known.status = 'ended';
    this.wake();
  }

  private adopt(snapshot: MatchSnapshot): void {
    this.adopted.push(snapshot.version);
    Object.assign(this.known, { version: snapshot.version, status: snapshot.status, ply: snapshot.position.ply, toMove: snapshot.position.toMove });
    this.wake();
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      setTimeout(resolve, 250);
    });
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  close(): void {
    this.socket.close();
  }
}
