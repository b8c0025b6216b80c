import type { GameServer } from '../realtime/game-server.js';

/**
 * Tells this process's sockets to go and waits until each connection has
 * closed, at most `capMs`. A socket told to go first sends what it still
 * holds (the acknowledgements of the last moves among them) and only then
 * closes; closing the server at once would discard that, leaving a move
 * committed here without its answer.
 */
export async function letSocketsGo(io: GameServer, capMs: number): Promise<void> {
  const closed = [...io.of('/').sockets.values()].map(
    (socket) => new Promise<void>((resolve) => (socket.conn.readyState === 'closed' ? resolve() : socket.conn.once('close', () => resolve()))),
  );
  io.local.disconnectSockets(true);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(closed), new Promise((resolve) => (timer = setTimeout(resolve, capMs)))]);
  clearTimeout(timer);
}
