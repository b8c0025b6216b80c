import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startHarness, type Harness } from './support/harness.js';

describe('a connection refused for too many sockets, in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ MAX_SOCKETS_PER_PLAYER: '1' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each([
    ['en-GB', 'Too many connections are open for you or your network.'],
    ['vi-VN', 'Bạn hoặc mạng của bạn đang mở quá nhiều kết nối.'],
  ])('tells a player in %s why a second tab cannot connect', async (locale, text) => {
    const { page, context, errors } = await newPlayer(harness.browser, { locale });
    await page.goto(harness.server.url);
    await page.waitForSelector('[data-me] [data-my-name]');
    await page.click('[data-create]');
    await page.waitForSelector('[data-waiting]');
    const link = await page.inputValue('[data-room-link]');

    // The same guest (same browser profile) in a second tab: one socket per player is allowed here.
    const second = await context.newPage();
    await second.goto(link);
    const refused = second.locator('[data-room-error="TOO_MANY_CONNECTIONS"]');
    await refused.waitFor({ timeout: 15_000 });
    expect(await refused.textContent()).toContain(text);
    // The first tab is still in its room.
    expect(await page.locator('[data-waiting]').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
