import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { cutMidBody } from '../testing/cut-request.js';
import { engines } from '../testing/databases.js';
import { api, newGuest, startApp } from '../testing/live.js';
import { metricSample } from '../testing/metric-sample.js';
import { waitFor } from '../testing/wait-for.js';

describe.each(engines)('requests cut mid-body on %s', (engine) => {
  let app: App | undefined;
  afterAll(() => app?.close());

  it('are counted as aborted by their client, never as the database unavailable, and the server answers on', async () => {
    let url: string;
    ({ app, url } = await startApp(engine));
    const port = Number(new URL(url).port);
    const { token } = await newGuest(url);
    const sample = async (name: string, labels = '') => metricSample(await app!.metrics.registry.metrics(), name, labels) ?? 0;
    const unavailable = () => sample('oanquan_database_unavailable_total', '{edge="http"}');
    const before = await unavailable();

    const requests = [{ method: 'POST', path: '/api/rooms', token }, { method: 'PATCH', path: '/api/me', token }, { method: 'POST', path: '/api/session' }];
    let cut = 0;
    for (const request of requests) {
      for (const how of ['destroy', 'resetAndDestroy'] as const) {
        await cutMidBody(port, request, how);
        cut++;
      }
    }
    await waitFor(`the server to see ${cut} requests aborted`, async () => (await sample('oanquan_http_requests_aborted_total')) === cut, { everyMs: 20 });
    expect(await unavailable()).toBe(before);
    expect((await api(url, '/api/health')).status).toBe(200);
  });
});
