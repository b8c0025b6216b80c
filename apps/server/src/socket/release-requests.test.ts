import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { newGuest, startApp } from '../testing/live.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * An idle connected socket keeps nothing of the HTTP request that opened it:
 * the requests are watched through weak references and must be collected
 * while their sockets stay connected.
 */
describe('the request that opened a socket', () => {
  let url: string;
  let app: App;
  const requests: Array<WeakRef<IncomingMessage>> = [];

  beforeAll(async () => {
    ({ url, app } = await startApp('pglite'));
    // Ahead of the server's own middleware: sees every request, upgrade or poll.
    app.io.engine.use((request: IncomingMessage, _response: unknown, next: () => void) => {
      requests.push(new WeakRef(request));
      next();
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['a WebSocket', ['websocket']],
    ['long polling, upgraded to a WebSocket', ['polling', 'websocket']],
    ['long polling alone', ['polling']],
  ])('is let go once the socket is connected over %s', async (_name, transports) => {
    requests.length = 0;
    const guest = await newGuest(url);
    const socket: Socket = connect(url, { auth: { token: guest.token }, transports, reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      // The upgrade, when there is one, is done once a WebSocket carries an answer.
      const deadline = Date.now() + 10_000;
      while (transports.includes('websocket') && socket.io.engine.transport.name !== 'websocket' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await socket.timeout(5_000).emitWithAck('queue:leave', {})).toEqual({ ok: true });
      expect(requests.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      collectGarbage();
      // The opening request; and over a WebSocket, every one (over polling alone, the poll under way is rightly held).
      expect(requests[0]!.deref()).toBeUndefined();
      if (transports.includes('websocket')) expect(requests.filter((request) => request.deref() !== undefined)).toHaveLength(0);
      expect(app.io.of('/').sockets.size).toBe(1);
      // Nor Socket.IO's record of the handshake: no headers, no token.
      const [connected] = app.io.of('/').sockets.values();
      const { headers, auth, query, time, url: path } = connected!.handshake;
      expect({ headers, auth, query, time, path }).toEqual({ headers: {}, auth: {}, query: {}, time: '', path: '' });
      expect(JSON.stringify(connected!.handshake)).not.toContain(guest.token);
    } finally {
      socket.close();
    }
  });
});
