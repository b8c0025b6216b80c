import { ServerResponse, type IncomingMessage } from 'node:http';
import type { GameServer } from '../realtime/game-server.js';

/**
 * Lets each socket's opening HTTP request go: the handshake reads it (token,
 * cookie, origin, address) and nothing after it does, yet Engine.IO would
 * hold it, with its raw headers and stream state, for as long as the
 * connection lives, twice over:
 * - for a WebSocket upgrade, through the stand-in response it makes for
 *   middlewares, whose 'close' listener stays on the TCP socket. The stand-in
 *   reads its request only for middlewares' headers, and there are no others.
 * - as the connection's `request`, until the socket is connected. A second
 *   connect on the same connection, the one thing that would read it again,
 *   closes the connection instead (see socket-edge.test.ts).
 *
 * Socket.IO's record of the handshake goes the same way: it keeps the
 * request's header object (cookie and all), the token given in `auth`, the
 * query and the time as a string, and only the handshake middleware reads
 * them (fetchSockets, which would copy them to another process, is not used).
 * Together with the handshake's own closure let go (socket-handlers.ts), idle
 * heap per socket 12.3 → 10.9 KB at 10,000 sockets (`pnpm bench:load --idle`).
 */
const nothing = Object.freeze({});

export function releaseRequests(io: GameServer): void {
  io.engine.use((_request: IncomingMessage, response: ServerResponse | { req: unknown }, next: () => void) => {
    if (!(response instanceof ServerResponse)) response.req = null;
    next();
  });
  io.on('connection', (socket) => {
    (socket.conn as unknown as { request: IncomingMessage | null }).request = null;
    Object.assign(socket.handshake, { headers: nothing, auth: nothing, query: nothing, time: '', url: '' });
  });
}
