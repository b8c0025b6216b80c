import { legalMoves, newGame, type Position, type RuleOptions, type State } from '@oanquan/rules';
import {
  followMove,
  RETRYABLE_CODES,
  resendPauseMs,
  resendStepsMs,
  stateOfSnapshot,
  unpackEnvelope,
  type Ack,
  type ClientToServerEvents,
  type ErrorCode,
  type MatchEventEnvelope,
  type MatchSnapshot,
  type RoomResponse,
  type Seat,
  type ServerToClientEvents,
  type SessionResponse,
} from '@oanquan/protocol';
import { io as connect, type Socket } from 'socket.io-client';
import { inBatches, Tally } from './stats.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
const hands = ['rock', 'paper', 'scissors'] as const;

/** What every player of one run adds to. */

export class LoadTally {
  readonly latencies: number[] = [];
  /**
   * From a move's sending to its event reaching the opponent (both players
   * are in this process, so one clock times both): with players on two
   * processes, the way through the other process and Redis.
   */
  readonly relayed: number[] = [];
  /** Moves in flight by match and version: when and by whom each was sent, until its opponent sees the event. */
  readonly sentAt = new Map<string, { t0: number; by: string; counted: boolean }>();
  readonly errors = new Tally();
  readonly ackedMoveIds = new Set<string>();
  /** Moves sent / acknowledged ok inside the measured window. */
  sent = 0;
  achieved = 0;
  /** Events a client saw twice; versions it never saw; events that came before one they follow (held until it came). */
  duplicates = 0;
  gaps = 0;
  outOfOrder = 0;
  /** Refusals to be sent again (BUSY), which the players resend with the same moveId as the web client does. */
  readonly resent = new Tally();
  /** Players whose game has started (its opener decided): the run is measured once every game has. */
  started = 0;
  measuring = false;
  stopping = false;
  inFlight = 0;
  /** Frames that carried a move to a player: how many, their bytes in all, the largest. */
  readonly movedFrames = { count: 0, bytes: 0, largest: 0 };

  /** Counts the frames a socket receives that start with `prefix` (its move event), as many bytes as went over the WebSocket. */
  watchFrames(socket: Socket, prefix: string): void {
    socket.io.engine.on('packet', ({ type, data }) => {
      if (type !== 'message' || typeof data !== 'string' || !data.startsWith(prefix)) return;
      // The frame is Engine.IO's packet type ('4', a message) and Socket.IO's packet.
      const bytes = 1 + Buffer.byteLength(data);
      this.movedFrames.count++;
      this.movedFrames.bytes += bytes;
      this.movedFrames.largest = Math.max(this.movedFrames.largest, bytes);
    });
  }
}

/** Socket.IO's packet of a move on the real server: an event (2) named match:event whose payload is packed (an array). */
export const MOVED_FRAME_PREFIX = '2["match:event",[';

export interface LoadSettings {
  thinkMs: number;
  /** Each game's two players connect to these servers in turn (players of one game on different processes). */
  urls: string[];
  tally: LoadTally;
}

async function post<T>(url: string, path: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * One seated player as a script: plays the opener with random hands, and on
 * its turn waits a think time, then sends a random legal move computed with
 * the rules package, which also plays each move the events carry (as every
 * client does: the events carry the move, not the position). When a game
 * ends it offers a rematch, so the number of live games stays constant.
 */
class LoadPlayer {
  private matchId = '';
  private version = 0;
  private seat: Seat = 0;
  private rules!: RuleOptions;
  private state: State | null = null;
  private moveCount = 0;
  private thinking = false;
  /** Events past a hole in the versions, until it fills. */
  private readonly held = new Map<number, MatchEventEnvelope>();

  constructor(
    private readonly socket: ClientSocket,
    private readonly name: string,
    private readonly settings: LoadSettings,
  ) {
    socket.on('match:event', (wire) => this.onEvent(unpackEnvelope(wire)));
    settings.tally.watchFrames(socket, MOVED_FRAME_PREFIX);
  }

  static async connect(url: string, token: string, name: string, settings: LoadSettings): Promise<LoadPlayer> {
    const socket: ClientSocket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return new LoadPlayer(socket, name, settings);
  }

  private request<E extends keyof ClientToServerEvents>(event: E, payload: unknown): Promise<Ack<E>> {
    const timed = this.socket.timeout(10_000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<Ack<E>> };
    return timed.emitWithAck(event, payload);
  }

  /** Sends the very same request again after a refusal that asks for it (BUSY), as the web client does with a move. */
  private async requestResending<E extends keyof ClientToServerEvents>(event: E, payload: unknown): Promise<Ack<E>> {
    let ack = await this.request(event, payload);
    // As the web client pauses before it resends a refused move (jittered, see resend-pauses.ts).
    for (let attempt = 0; attempt < resendStepsMs.length; attempt++) {
      if (ack.ok || !RETRYABLE_CODES.has(ack.code as ErrorCode)) break;
      this.settings.tally.resent.add(`${event}:${ack.code}`);
      await new Promise((resolve) => setTimeout(resolve, resendPauseMs(attempt)));
      ack = await this.request(event, payload);
    }
    return ack;
  }

  async join(code: string): Promise<void> {
    const ack = await this.requestResending('room:join', { code });
    if (!ack.ok) throw new Error(`room:join: ${ack.code}`);
    this.matchId = ack.snapshot.matchId;
    this.version = ack.snapshot.version;
    this.seat = ack.seat ?? 0;
    this.rules = ack.snapshot.rules;
    this.adopt(ack.snapshot);
  }

  private adopt(snapshot: MatchSnapshot): void {
    this.state = snapshot.status === 'playing' ? stateOfSnapshot(snapshot) : null;
  }

  chooseHand(): void {
    // The events say what happened; a refusal is counted (a game stuck in its opener plays no moves), and an answer lost when the run closes the sockets is not.
    this.requestResending('opener:choose', { matchId: this.matchId, choice: hands[Math.floor(Math.random() * 3)] }).then(
      (ack) => {
        if (!ack.ok) this.settings.tally.errors.add(`opener:${ack.code}`);
      },
      () => {},
    );
  }

  /**
   * Applies events in version order, as the web client does (EnvelopeBuffer):
   * with players on two processes, events committed on each cross on their
   * way, so one may come before the one it follows. It is held until the
   * hole fills; a hole still open when the run ends is an event missed.
   */
  private onEvent(envelope: MatchEventEnvelope): void {
    const tally = this.settings.tally;
    if (envelope.matchId !== this.matchId) return;
    // Events committed between subscribing and reading the snapshot come again: not a duplicate.
    if (envelope.version <= this.version || this.held.has(envelope.version)) {
      if (tally.measuring && this.moveCount > 0) tally.duplicates++;
      return;
    }
    this.held.set(envelope.version, envelope);
    if (envelope.version > this.version + 1) tally.outOfOrder++;
    const key = `${envelope.matchId}:${envelope.version}`;
    const sent = tally.sentAt.get(key);
    if (sent && sent.by !== this.name) {
      tally.sentAt.delete(key);
      if (sent.counted) tally.relayed.push(performance.now() - sent.t0);
    }
    for (let next = this.held.get(this.version + 1); next; next = this.held.get(this.version + 1)) {
      this.held.delete(next.version);
      this.apply(next);
    }
  }

  /** Versions this player never saw below the last one it holds. */
  missing(): number {
    return this.held.size ? Math.max(...this.held.keys()) - this.version - this.held.size : 0;
  }

  private apply(envelope: MatchEventEnvelope): void {
    const { event } = envelope;
    this.version = envelope.version;
    if (event.type === 'opener-round' && event.winner === null) this.chooseHand();
    else if (event.type === 'started') {
      this.settings.tally.started++;
      this.state = newGame({ rules: this.rules, first: event.first });
      this.maybeMove();
    } else if (event.type === 'moved') {
      this.state = this.state && (followMove(this.state, event)?.state ?? null);
      if (!this.state) this.settings.tally.errors.add('UNFOLLOWABLE_MOVE');
      this.maybeMove();
    } else if (event.type === 'ended') {
      this.state = null;
      if (!this.settings.tally.stopping) this.request('rematch', { matchId: this.matchId }).catch(() => {});
    } else if (event.type === 'rematch') {
      this.matchId = event.matchId;
      this.version = 0;
      this.moveCount = 0;
      this.held.clear();
      if (!this.settings.tally.stopping) this.chooseHand();
    }
  }

  private maybeMove(): void {
    const position = this.state?.position;
    if (!position || position.status !== 'playing' || position.toMove !== this.seat || this.thinking) return;
    this.thinking = true;
    const think = this.settings.thinkMs * (0.5 + Math.random());
    setTimeout(() => void this.sendMove(), think);
  }

  private async sendMove(): Promise<void> {
    const tally = this.settings.tally;
    this.thinking = false;
    const position = this.state?.position;
    if (tally.stopping || !position || position.toMove !== this.seat || position.status !== 'playing') return;
    const legal = legalMoves(position);
    const move = legal[Math.floor(Math.random() * legal.length)]!;
    const moveId = `${this.name}-${this.matchId.slice(0, 8)}-${this.moveCount++}`;
    const counted = tally.measuring;
    if (counted) tally.sent++;
    tally.inFlight++;
    const t0 = performance.now();
    const key = `${this.matchId}:${this.version + 1}`;
    tally.sentAt.set(key, { t0, by: this.name, counted });
    let ack: Ack<'move'>;
    try {
      ack = await this.requestResending('move', { matchId: this.matchId, moveId, version: this.version, ...move });
    } catch {
      ack = { ok: false, code: 'ACK_TIMEOUT' as never, message: 'no acknowledgement in 10 s' };
    }
    tally.inFlight--;
    if (!ack.ok) tally.sentAt.delete(key);
    if (ack.ok) {
      tally.ackedMoveIds.add(moveId);
      if (counted) {
        tally.achieved++;
        tally.latencies.push(performance.now() - t0);
      }
      return;
    }
    tally.errors.add(ack.code);
    await this.resync();
  }

  /** After a refusal: catch up from the last version seen, then play on if it is still our turn. */
  private async resync(): Promise<void> {
    const ack = await this.request('sync', { matchId: this.matchId, version: this.version }).catch(() => null);
    if (!ack?.ok) return;
    if ('snapshot' in ack) {
      this.version = ack.snapshot.version;
      this.adopt(ack.snapshot);
      this.maybeMove();
    } else for (const wire of ack.events) this.onEvent(unpackEnvelope(wire));
  }

  close(): void {
    this.socket.close();
  }
}

/** Sets up `games` live games (guests, rooms, seats, opener) and returns their players, already playing. */
export async function startGames(games: number, settings: LoadSettings): Promise<LoadPlayer[]> {
  const [url] = settings.urls as [string];
  const guests = await inBatches(Array.from({ length: games * 2 }), 16, () => post<SessionResponse>(url, '/api/session'));
  const pairs = await inBatches(Array.from({ length: games }), 16, async (_, game) => {
    const [a, b] = [guests[2 * game]!, guests[2 * game + 1]!];
    const room = await post<RoomResponse>(url, '/api/rooms', a.token, { timeControl: { initialSeconds: 1800, incrementSeconds: 0 } });
    const urlOf = (i: number) => settings.urls[i % settings.urls.length]!;
    const players = [
      await LoadPlayer.connect(urlOf(0), a.token, `g${game}a`, settings),
      await LoadPlayer.connect(urlOf(1), b.token, `g${game}b`, settings),
    ] as const;
    await players[0].join(room.code);
    await players[1].join(room.code);
    return players;
  });
  for (const [a, b] of pairs) {
    a.chooseHand();
    b.chooseHand();
  }
  return pairs.flat();
}

export function closeAll(players: Array<{ close(): void }>): void {
  for (const player of players) player.close();
}
