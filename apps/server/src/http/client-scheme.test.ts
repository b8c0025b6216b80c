import type { ErrorBody } from '@oanquan/protocol';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { newGuest, startApp } from '../testing/live.js';

/**
 * What the scheme the client used decides: whether an origin is this site
 * (http://host and https://host are two sites), and whether HSTS is sent.
 * Behind a trusted proxy the scheme is the proxy's X-Forwarded-Proto; from
 * anyone else that header counts for nothing.
 */
describe('the client’s scheme', () => {
  let direct: { url: string; app: App };
  let proxied: { url: string; app: App };
  beforeAll(async () => {
    direct = await startApp('pglite');
    proxied = await startApp('pglite', {}, { TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await direct.app.close();
    await proxied.app.close();
  });

  /** A browser's state-changing request with the given Origin (and the proxy's X-Forwarded-Proto, if any). */
  async function send(url: string, path: string, token: string, origin: string, forwardedProto?: string, method = 'POST', body?: unknown) {
    const response = await fetch(url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        origin,
        'sec-fetch-site': 'same-origin',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(forwardedProto ? { 'x-forwarded-proto': forwardedProto } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as ErrorBody };
  }

  function handshake(url: string, token: string, origin: string) {
    const socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token }, extraHeaders: { origin } });
    return new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error: Error & { data?: ErrorBody }) => resolve(error.data?.code ?? error.message));
    }).finally(() => socket.close());
  }

  it('refuses an https origin on a plain-HTTP request, even with X-Forwarded-Proto from a peer not trusted', async () => {
    const { url } = direct;
    const guest = await newGuest(url);
    const https = url.replace('http:', 'https:');
    expect(await send(url, '/api/me', guest.token, https, undefined, 'PATCH', { name: 'Lan' })).toMatchObject({ status: 403, body: { code: 'CROSS_SITE' } });
    expect(await send(url, '/api/session/logout-all', guest.token, https)).toMatchObject({ status: 403, body: { code: 'CROSS_SITE' } });
    expect(await send(url, '/api/session/logout-all', guest.token, https, 'https')).toMatchObject({ status: 403, body: { code: 'CROSS_SITE' } });
    expect(await handshake(url, guest.token, https)).toBe('CROSS_SITE');
    // The session is untouched, and the site's own origin goes through.
    expect(await handshake(url, guest.token, url)).toBe('connected');
    expect((await send(url, '/api/me', guest.token, url, undefined, 'PATCH', { name: 'Lan' })).status).toBe(200);
  });

  it('behind a trusted proxy, takes the scheme from X-Forwarded-Proto', async () => {
    const { url } = proxied;
    const guest = await newGuest(url);
    const https = url.replace('http:', 'https:');
    expect((await send(url, '/api/me', guest.token, https, 'https', 'PATCH', { name: 'Lan' })).status).toBe(200);
    expect(await send(url, '/api/me', guest.token, url, 'https', 'PATCH', { name: 'Lan' })).toMatchObject({ status: 403, body: { code: 'CROSS_SITE' } });
    expect(await send(url, '/api/me', guest.token, https, 'http', 'PATCH', { name: 'Lan' })).toMatchObject({ status: 403, body: { code: 'CROSS_SITE' } });
  });

  it('sends HSTS only over HTTPS', async () => {
    const hsts = async (url: string, forwardedProto?: string) =>
      (await fetch(`${url}/api/health`, { headers: forwardedProto ? { 'x-forwarded-proto': forwardedProto } : {} })).headers.get('strict-transport-security');
    expect(await hsts(direct.url)).toBeNull();
    expect(await hsts(direct.url, 'https')).toBeNull();
    expect(await hsts(proxied.url)).toBeNull();
    expect(await hsts(proxied.url, 'https')).toBe('max-age=31536000; includeSubDomains');
  });
});
