import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engines, scratchTarget } from './testing/databases.js';
import { startServerProcess } from '@oanquan/testkit';

describe.each(engines)('the server process on %s', (engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('migrates at start-up, reports its database, serves the web app, and stops cleanly on SIGTERM', { timeout: 120_000 }, async () => {
    const env: Record<string, string> = {};
    if (engine === 'pglite') {
      const dir = await mkdtemp(path.join(tmpdir(), 'oanquan-pglite-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      env.PGLITE_DATA_DIR = path.join(dir, 'data');
    } else {
      const scratch = await scratchTarget('postgresql');
      cleanups.push(scratch.drop);
      if (scratch.target.kind === 'postgresql') env.DATABASE_URL = scratch.target.url;
    }
    const server = await startServerProcess(env);

    const health = await fetch(`${server.url}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: engine });
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<title>Ô ăn quan/);
    const unknown = await fetch(`${server.url}/api/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    // A page not found is logged as JSON like the rest, not as a coloured line of its own.
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/"status":404,"method":"GET","url":"\/nope","msg":"page refused"/);
    expect(server.output()).not.toMatch(/\[404\]/);
    // JSON logs in production, with the migrations the start-up applied.
    expect(server.output()).toMatch(/"msg":"database ready"/);
    expect(server.output()).toMatch(/_init/);
    // How long the start took, for a person and in the logs.
    expect(server.output()).toMatch(new RegExp(`^Open ${server.url} \\(ready \\d+ ms after start\\)$`, 'm'));
    expect(server.output()).toMatch(new RegExp(`"readyMs":\\d+,"cpuMs":\\d+,"database":"${engine}","msg":"ready"`));

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toMatch(/shutting down/);
  });
});
