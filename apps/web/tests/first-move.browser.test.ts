import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startHarness, type Harness } from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

describe('the first-move deadline in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ FIRST_MOVE_TIMEOUT_MS: '6000' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const secondsShown = async (page: Page) => Number((await page.textContent('[data-first-move-countdown]'))?.match(/\d+/)?.[0]);

  it('both players see the countdown to the first move; when it runs out the match is aborted for both', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    for (const { page } of [a, b]) {
      const seconds = await secondsShown(page);
      expect(seconds).toBeGreaterThan(0);
      // It counts down.
      await page.waitForFunction(
        (before) => Number(document.querySelector('[data-first-move-countdown]')?.textContent?.match(/\d+/)?.[0] ?? 0) < before,
        seconds,
      );
    }
    for (const { page } of [a, b]) {
      await page.waitForSelector('[data-result="aborted"]', { timeout: 15_000 });
      expect(await page.getAttribute('[data-result]', 'data-reason')).toBe('abort');
      expect(await page.locator('[data-first-move-countdown]').count()).toBe(0);
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('the countdown reads in both languages and goes once the first move is made', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    await a.page.click('[data-lang="en"]');
    expect(await a.page.textContent('[data-first-move-countdown]')).toMatch(/first move must come within \d+ s/);
    await a.page.click('[data-lang="vi"]');
    expect(await a.page.textContent('[data-first-move-countdown]')).toMatch(/Nước đầu tiên phải đi trong \d+ giây/);
    await a.page.click('[data-board] [data-square="1"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    for (const { page } of [a, b]) {
      await waitForPly(page, 1);
      expect(await page.locator('[data-first-move-countdown]').count()).toBe(0);
    }
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
