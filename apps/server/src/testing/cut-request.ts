import { connect } from 'node:net';

/**
 * A request over a raw socket that announces a large body and, once the
 * server has its headers (its 100 Continue), sends part of the body and
 * hangs up: with a FIN (`destroy`) or a TCP reset (`resetAndDestroy`).
 * Resolves once the socket is closed.
 */
export function cutMidBody(port: number, request: { method: string; path: string; token?: string }, cut: 'destroy' | 'resetAndDestroy'): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.once('data', () => socket.write(`{"name":"${'x'.repeat(8000)}`, () => socket[cut]()));
    const auth = request.token ? `Authorization: Bearer ${request.token}\r\n` : '';
    socket.write(
      `${request.method} ${request.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 50000\r\nExpect: 100-continue\r\n\r\n`,
    );
  });
}
