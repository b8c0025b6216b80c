import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { paths } from '../config.js';
import { startApp } from '../testing/live.js';

const everywhere = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries(response.headers);
}

function directives(policy: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers', () => {
  let url: string;
  let app: App;
  beforeAll(async () => {
    expect(existsSync(path.join(paths.webBuild, 'handler.js')), 'the web app must be built (pnpm build)').toBe(true);
    ({ url, app } = await startApp('pglite'));
  });
  afterAll(() => app.close());

  it('an HTML page carries SvelteKit’s policy: a nonce for its own script, no framing, sockets to this host only', async () => {
    const response = await fetch(`${url}/`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(headersOf(response)).toMatchObject(everywhere);
    const policy = directives(response.headers.get('content-security-policy') ?? undefined);
    expect(policy).toMatchObject({
      'default-src': ["'self'"],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'self'"],
    });
    const [self, nonce, ...rest] = policy['script-src']!;
    expect({ self, rest }).toEqual({ self: "'self'", rest: [] });
    expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/=]+'$/);
    // The inline start-up script carries that very nonce, so it runs and nothing injected does.
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce!.slice("'nonce-".length, -1)}"`);
  });

  it('a page SvelteKit answers with 404 carries the same policy', async () => {
    const response = await fetch(`${url}/no/such/page`);
    expect(response.status).toBe(404);
    expect(headersOf(response)).toMatchObject(everywhere);
    expect(directives(response.headers.get('content-security-policy') ?? undefined)['frame-ancestors']).toEqual(["'none'"]);
    // A body left unread keeps its connection busy, and closing the server waits for it.
    await response.arrayBuffer();
  });

  it('API answers, refusals included, load nothing and may not be framed', async () => {
    for (const [route, status] of [['/api/health', 200], ['/api/me', 401], ['/api/nothing', 404]] as const) {
      const response = await fetch(url + route);
      expect({ route, status: response.status }).toEqual({ route, status });
      expect(headersOf(response)).toMatchObject(everywhere);
      expect(directives(response.headers.get('content-security-policy') ?? undefined)).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
      });
      await response.arrayBuffer();
    }
  });

  it('static assets are served with nosniff and may not be framed', async () => {
    const html = await (await fetch(`${url}/`)).text();
    const script = html.match(/\/_app\/immutable\/[^"']+\.js/)?.[0];
    expect(script).toBeDefined();
    for (const asset of [script!, '/favicon.svg']) {
      const response = await fetch(url + asset);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect(headersOf(response)).toMatchObject(everywhere);
      expect(directives(response.headers.get('content-security-policy') ?? undefined)['frame-ancestors']).toEqual(["'none'"]);
      await response.arrayBuffer();
    }
  });
});
