import { legalMoves, newGame, type Move, type RuleOptions, type State } from '@oanquan/rules';
import {
  followMove,
  isRetryable,
  reconnectionOptions,
  resendPauseMs,
  stateOfSnapshot,
  unpackEnvelope,
  type Ack,
  type ClientEventName,
  type ClientToServerEvents,
  type MatchEventEnvelope,
  type MatchSnapshot,
  type Seat,
  type ServerToClientEvents,
} from '@oanquan/protocol';
import { io as connect, type Socket } from 'socket.io-client';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Phase = 'waiting' | 'opener' | 'playing' | 'ended';
const hands = ['rock', 'paper', 'scissors'] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every player of the run adds to; times are Date.now(). */
export class RecoverTally {
  /** When each move was first acknowledged: the move rate's timeline. */
  readonly ackTimes: number[] = [];
  readonly acked = new Set<string>();
  /** Every move id sent, with when it was first sent. */
  readonly sent = new Map<string, number>();
  /** Moves whose first answer never came (the connection went first, or 5 s passed), with when that was seen. */
  readonly unanswered = new Map<string, number>();
  /** Of those, the ones whose answer the connection took with it (the others waited past 5 s). */
  readonly cutOff = new Set<string>();
  /** Refusals to be sent again (BUSY, UNAVAILABLE), by when. */
  readonly refusals: Array<{ at: number; code: string }> = [];
  readonly disconnects: number[] = [];
  readonly reconnects: number[] = [];
  readonly errors = new Map<string, number>();
  stopping = false;

  error(code: string): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }
}

/**
 * A seated player that plays random legal moves after a think time, as
 * LoadPlayer does, but comes back from faults as the web client does: it
 * reconnects by itself with Socket.IO's jittered backoff (also when a
 * draining server asks it to go), catches up by version, and resends a move
 * whose answer it never got with the same moveId, whatever the version is
 * by then, so it learns the move's outcome (the server answers a move id it
 * has seen with its earlier outcome) instead of dropping it. Refusals to be
 * sent again are resent after jittered pauses. A player that has seen no
 * progress for a while catches up, so a lost request never stalls its game.
 */
export class RecoveringPlayer {
  private matchId = '';
  private version = 0;
  private seat: Seat = 0;
  private rules!: RuleOptions;
  private state: State | null = null;
  private phase: Phase = 'waiting';
  private moveCount = 0;
  private thinking = false;
  private pending: ({ moveId: string; version: number } & Move) | undefined;
  private sending = false;
  private syncing: Promise<void> | undefined;
  private progressAt = Date.now();
  private readonly watchdog: NodeJS.Timeout;

  private constructor(
    private readonly socket: ClientSocket,
    private readonly name: string,
    private readonly tally: RecoverTally,
    private readonly thinkMs: number,
  ) {
    socket.on('match:event', (wire) => this.receive(unpackEnvelope(wire)));
    socket.on('disconnect', (reason) => {
      tally.disconnects.push(Date.now());
      // A draining server asks its clients to go; Socket.IO does not come back from that by itself.
      if (reason === 'io server disconnect' && !tally.stopping) socket.connect();
    });
    socket.on('connect', () => {
      tally.reconnects.push(Date.now());
      void this.catchUp();
    });
    this.watchdog = setInterval(() => {
      if (this.matchId && this.socket.connected && !this.syncing && !this.sending && !this.thinking && Date.now() - this.progressAt > 4_000) void this.catchUp();
    }, 1_000);
  }

  static async connect(url: string, token: string, name: string, tally: RecoverTally, thinkMs: number): Promise<RecoveringPlayer> {
    const socket: ClientSocket = connect(url, { auth: { token }, transports: ['websocket'], forceNew: true, ...reconnectionOptions });
    // A first connection refused (a loaded machine's node missed its checks, and the proxy had none to offer) is tried again by Socket.IO.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} could not connect within 60 s`)), 60_000);
      socket.once('connect', () => (clearTimeout(timer), resolve()));
    });
    return new RecoveringPlayer(socket, name, tally, thinkMs);
  }

  /** One request; null when the connection is down, goes while it waits, or 5 s pass. */
  private async request<E extends ClientEventName>(event: E, payload: unknown): Promise<Ack<E> | null> {
    if (!this.socket.connected) return null;
    const timed = this.socket.timeout(5_000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<Ack<E>> };
    return timed.emitWithAck(event, payload).catch(() => null);
  }

  /** Resent while refused as retryable (jittered pauses); null once the connection is down (the reconnection catches up). */
  private async requestResending<E extends ClientEventName>(event: E, payload: unknown): Promise<Ack<E> | null> {
    for (let attempt = 0; !this.tally.stopping; attempt++) {
      const ack = await this.request(event, payload);
      if (ack === null && !this.socket.connected) return null;
      if (ack !== null && (ack.ok || !isRetryable(ack.code))) return ack;
      if (ack !== null) this.tally.refusals.push({ at: Date.now(), code: ack.code });
      await sleep(resendPauseMs(attempt));
    }
    return null;
  }

  async join(code: string): Promise<void> {
    const ack = await this.requestResending('room:join', { code });
    if (!ack?.ok) throw new Error(`room:join: ${JSON.stringify(ack)}`);
    this.seat = ack.seat ?? 0;
    this.rules = ack.snapshot.rules;
    this.matchId = ack.snapshot.matchId;
    this.adopt(ack.snapshot);
  }

  chooseHand(): void {
    const matchId = this.matchId;
    void this.requestResending('opener:choose', { matchId, choice: hands[Math.floor(Math.random() * 3)] }).then((ack) => {
      // A hand chosen again after a reconnection, whose first choice did arrive, is no error.
      if (ack && !ack.ok && ack.code !== 'ALREADY_CHOSEN' && matchId === this.matchId) this.tally.error(`opener:${ack.code}`);
    });
  }

  private adopt(snapshot: MatchSnapshot): void {
    this.version = snapshot.version;
    this.phase = snapshot.status;
    this.state = snapshot.status === 'playing' ? stateOfSnapshot(snapshot) : null;
    this.progressAt = Date.now();
  }

  private receive(envelope: MatchEventEnvelope): void {
    if (envelope.matchId !== this.matchId || envelope.version <= this.version) return;
    if (envelope.version > this.version + 1) void this.sync();
    else this.apply(envelope);
  }

  private apply({ version, event }: MatchEventEnvelope): void {
    this.version = version;
    this.progressAt = Date.now();
    if (event.type === 'opener-round' && event.winner === null) this.chooseHand();
    else if (event.type === 'started') {
      this.phase = 'playing';
      this.state = newGame({ rules: this.rules, first: event.first });
      this.maybeMove();
    } else if (event.type === 'moved') {
      this.state = this.state && (followMove(this.state, event)?.state ?? null);
      if (!this.state) this.tally.error('UNFOLLOWABLE_MOVE');
      this.maybeMove();
    } else if (event.type === 'ended') {
      this.phase = 'ended';
      this.state = null;
      if (!this.tally.stopping) void this.requestResending('rematch', { matchId: this.matchId });
    } else if (event.type === 'rematch') {
      this.matchId = event.matchId;
      this.version = 0;
      this.phase = 'opener';
      if (!this.tally.stopping) this.chooseHand();
    }
  }

  private sync(): Promise<void> {
    this.syncing ??= (async () => {
      try {
        while (!this.tally.stopping && this.socket.connected) {
          const ack = await this.request('sync', { matchId: this.matchId, version: this.version });
          if (ack?.ok && 'snapshot' in ack) return this.adopt(ack.snapshot);
          if (ack?.ok) {
            for (const wire of ack.events) this.receive(unpackEnvelope(wire));
            return;
          }
          await sleep(resendPauseMs(2));
        }
      } finally {
        this.syncing = undefined;
      }
    })();
    return this.syncing;
  }

  /** After a reconnection or a stall: catch up, then carry on from where the game stands. */
  private async catchUp(): Promise<void> {
    if (!this.matchId) return;
    this.progressAt = Date.now();
    await this.sync();
    if (this.pending) return this.sendPending();
    if (this.phase === 'opener') this.chooseHand();
    else if (this.phase === 'ended' && !this.tally.stopping) void this.requestResending('rematch', { matchId: this.matchId });
    else this.maybeMove();
  }

  private maybeMove(): void {
    const position = this.state?.position;
    if (!position || position.status !== 'playing' || position.toMove !== this.seat || this.thinking || this.pending) return;
    this.thinking = true;
    setTimeout(() => void this.sendMove(), this.thinkMs * (0.5 + Math.random()));
  }

  private async sendMove(): Promise<void> {
    this.thinking = false;
    const position = this.state?.position;
    if (this.tally.stopping || this.pending || !position || position.toMove !== this.seat || position.status !== 'playing') return;
    const legal = legalMoves(position);
    const move = legal[Math.floor(Math.random() * legal.length)]!;
    this.pending = { moveId: `${this.name}-${this.matchId.slice(0, 8)}-${this.moveCount++}`, version: this.version, square: move.square, dir: move.dir };
    this.tally.sent.set(this.pending.moveId, Date.now());
    await this.sendPending();
  }

  private async sendPending(): Promise<void> {
    const pending = this.pending;
    if (!pending || this.sending) return;
    this.sending = true;
    try {
      for (let attempt = 0; this.pending === pending && !this.tally.stopping; attempt++) {
        if (!this.socket.connected) return; // resent once reconnected
        const ack = await this.request('move', { matchId: this.matchId, ...pending });
        if (ack === null) {
          if (!this.tally.unanswered.has(pending.moveId)) {
            this.tally.unanswered.set(pending.moveId, Date.now());
            if (!this.socket.connected) this.tally.cutOff.add(pending.moveId);
          }
          continue;
        }
        if (!ack.ok && isRetryable(ack.code)) {
          this.tally.refusals.push({ at: Date.now(), code: ack.code });
          await sleep(resendPauseMs(attempt));
          continue;
        }
        this.pending = undefined;
        this.progressAt = Date.now();
        if (ack.ok) {
          if (!this.tally.acked.has(pending.moveId)) {
            this.tally.acked.add(pending.moveId);
            this.tally.ackTimes.push(Date.now());
          }
          // Its event comes by broadcast; one lost with a connection is fetched.
          if (ack.version > this.version + 1) void this.sync();
        } else {
          this.tally.error(ack.code);
          await this.sync();
          this.maybeMove();
        }
      }
    } finally {
      this.sending = false;
    }
  }

  close(): void {
    clearInterval(this.watchdog);
    this.socket.close();
  }
}
