import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startServerProcess, type ServerProcess } from '@oanquan/testkit';

describe('the home page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'oanquan-web-'));
    [server, browser] = await Promise.all([
      startServerProcess({ PGLITE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is served by the game server and renders', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await expect(page.title()).resolves.toBe('Ô ăn quan');
    expect(await page.locator('h1').textContent()).toBe('Ô ăn quan');
  });
});
