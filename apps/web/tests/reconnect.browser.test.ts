import { startServerProcess, type ServerProcess } from '@oanquan/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer } from './support/harness.js';
import { migratedDataDir } from './support/migrated-data.js';
import { sharedChromium } from './support/shared-chromium.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

describe('a server that dies mid-game, in Chromium', () => {
  let browser: Browser;
  let data: Awaited<ReturnType<typeof migratedDataDir>>;
  let server: ServerProcess;
  beforeAll(async () => {
    data = await migratedDataDir();
    [server, browser] = await Promise.all([startServerProcess({ PGLITE_DATA_DIR: data.dir, LOG_LEVEL: 'warn' }), sharedChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGKILL');
    await server?.exited;
    await data?.drop();
  });

  it('shows "reconnecting" in both languages, sends the move made meanwhile once it is back, and the game goes on', async () => {
    const a = await newPlayer(browser);
    const b = await newPlayer(browser);
    await openRoom(server.url, a, b);
    await playOpener(a, b);
    await a.page.click('[data-board] [data-square="1"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    for (const { page } of [a, b]) await waitForPly(page, 1);

    const port = Number(new URL(server.url).port);
    server.child.kill('SIGKILL');
    await server.exited;
    for (const { page } of [a, b]) await page.waitForSelector('[data-banner="connection"]');
    await b.page.click('[data-lang="en"]');
    expect(await b.page.textContent('[data-banner="connection"]')).toMatch(/Reconnecting/);
    await b.page.click('[data-lang="vi"]');
    expect(await b.page.textContent('[data-banner="connection"]')).toMatch(/Đang kết nối lại/);

    // B moves while no server answers: the move waits for the connection, then goes.
    await b.page.click('[data-board] [data-square][data-legal]');
    await b.page.click('[data-board] [data-dir="1"]');
    server = await startServerProcess({ PGLITE_DATA_DIR: data.dir, LOG_LEVEL: 'warn' }, { port });
    for (const { page } of [a, b]) {
      await waitForPly(page, 2);
      await page.waitForSelector('[data-banner="connection"]', { state: 'detached' });
    }

    await a.page.click('[data-board] [data-square][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    for (const { page } of [a, b]) await waitForPly(page, 3);
    expect(await b.page.getAttribute('[data-board]', 'data-ply')).toBe('3');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  }, 120_000);
});
