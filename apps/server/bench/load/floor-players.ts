import { io as connect, type Socket } from 'socket.io-client';
import type { LoadTally } from './game-players.js';
import { inBatches } from './stats.js';

type Answer = { ok: true; version: number } | { ok: false; code: string };

/** A pair of scripted players on the floor relay: same think time and bookkeeping as on the real server, moves alternate by version. */
class FloorPlayer {
  private version = 0;
  private moves = 0;

  constructor(
    private readonly socket: Socket,
    private readonly game: number,
    private readonly seat: 0 | 1,
    private readonly thinkMs: number,
    private readonly tally: LoadTally,
  ) {
    tally.watchFrames(socket, '2["moved",');
    socket.on('moved', (event: { version: number }) => {
      if (event.version <= this.version) return void tally.duplicates++;
      if (event.version > this.version + 1) tally.gaps += event.version - this.version - 1;
      this.version = event.version;
      this.maybeMove();
    });
  }

  maybeMove(): void {
    if (this.version % 2 !== this.seat) return;
    setTimeout(() => void this.send(), this.thinkMs * (0.5 + Math.random()));
  }

  private async send(): Promise<void> {
    if (this.tally.stopping) return;
    const counted = this.tally.measuring;
    if (counted) this.tally.sent++;
    this.tally.inFlight++;
    const moveId = `f${this.game}-${this.seat}-${this.moves++}`;
    const t0 = performance.now();
    const answer = (await this.socket
      .timeout(10_000)
      .emitWithAck('move', { game: this.game, version: this.version, moveId, square: 1 + (this.moves % 5), dir: 1 })
      .catch(() => ({ ok: false, code: 'ACK_TIMEOUT' }))) as Answer;
    this.tally.inFlight--;
    if (!answer.ok) return void this.tally.errors.add(answer.code);
    this.tally.ackedMoveIds.add(moveId);
    if (counted) {
      this.tally.achieved++;
      this.tally.latencies.push(performance.now() - t0);
    }
  }

  close(): void {
    this.socket.close();
  }
}

export async function startFloorGames(url: string, games: number, thinkMs: number, tally: LoadTally): Promise<FloorPlayer[]> {
  const pairs = await inBatches(Array.from({ length: games }), 32, async (_, game) => {
    const sockets = await Promise.all(
      [0, 1].map(
        (seat) =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(url, { auth: { game, seat }, transports: ['websocket'], reconnection: false, forceNew: true });
            socket.once('connect', () => resolve(socket));
            socket.once('connect_error', reject);
          }),
      ),
    );
    await sockets[0]!.emitWithAck('open');
    return sockets.map((socket, seat) => new FloorPlayer(socket, game, seat as 0 | 1, thinkMs, tally));
  });
  for (const [first] of pairs) first!.maybeMove();
  // A floor game has no opener: it is under way as soon as its sockets are.
  tally.started = 2 * games;
  return pairs.flat();
}

/** A bare Socket.IO round trip, one at a time: the floor of an acknowledgement. */
export async function echoLatencies(url: string, count: number): Promise<number[]> {
  const socket = connect(url, { auth: { game: -1 }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await socket.emitWithAck('echo', { i });
    latencies.push(performance.now() - t0);
  }
  socket.close();
  return latencies;
}
