import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { App } from '../app.js';
import { newGuest, startApp } from '../testing/live.js';

/** Behind a trusted proxy a socket's address is the client's, as for a request: one person's limit is not everyone's. */
describe.each([
  { trust: 'loopback', forwardedCounts: true },
  { trust: undefined, forwardedCounts: false },
])('sockets per address with TRUST_PROXY=$trust', ({ trust, forwardedCounts }) => {
  let url: string;
  let app: App;
  const open: Socket[] = [];

  beforeAll(async () => {
    ({ url, app } = await startApp('pglite', {}, { MAX_SOCKETS_PER_ADDRESS: '1', ...(trust ? { TRUST_PROXY: trust } : {}) }));
  });
  afterAll(async () => {
    for (const socket of open) socket.close();
    await app.close();
  });

  function connectAs(token: string, forwardedFor: string): Promise<unknown> {
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { 'x-forwarded-for': forwardedFor } });
    open.push(socket);
    return new Promise((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(error.data?.code));
    });
  }

  it(forwardedCounts ? 'counts each forwarded client on its own' : 'ignores X-Forwarded-For', async () => {
    const [a, b] = await Promise.all([newGuest(url), newGuest(url)]);
    expect(await connectAs(a.token, '203.0.113.1')).toBe('connected');
    expect(await connectAs(b.token, '203.0.113.2')).toBe(forwardedCounts ? 'connected' : 'TOO_MANY_CONNECTIONS');
    expect(await connectAs(b.token, '203.0.113.1')).toBe('TOO_MANY_CONNECTIONS');
  });
});
