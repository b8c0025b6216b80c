import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startHarness, type Harness } from './support/harness.js';

const LIGHT_PAPER = 'rgb(246, 239, 227)';
const DARK_PAPER = 'rgb(26, 20, 15)';

const paper = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** How a square of the first rule diagram is painted: the board's look, whatever the page's theme. */
const boardLook = (page: Page) =>
  page.$eval('[data-diagram-square]', (square) => {
    const style = getComputedStyle(square);
    return { color: style.color, background: style.backgroundImage, board: getComputedStyle(square.parentElement!).backgroundImage };
  });

describe('the light and dark themes in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('follow the system’s colour scheme from the first paint, before any script, and leave the board as it is', async () => {
    // Without scripts the page is as the server drew it: what a first paint shows.
    const dark = await newPlayer(harness.browser, { colorScheme: 'dark', javaScriptEnabled: false });
    const light = await newPlayer(harness.browser, { colorScheme: 'light', javaScriptEnabled: false });
    for (const { page } of [dark, light]) await page.goto(harness.server.url + '/rules');
    expect(await paper(dark.page)).toBe(DARK_PAPER);
    expect(await paper(light.page)).toBe(LIGHT_PAPER);
    expect(await dark.page.getAttribute('html', 'data-theme')).toBe('system');
    expect(await boardLook(dark.page)).toEqual(await boardLook(light.page));

    // A chosen theme (its cookie) wins over the system's, still without a script.
    await light.context.addCookies([{ name: 'theme', value: 'dark', url: harness.server.url }]);
    await light.page.reload();
    expect(await light.page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await paper(light.page)).toBe(DARK_PAPER);
    await Promise.all([dark.context.close(), light.context.close()]);
  });

  it('switch from the settings page at once, and keep the choice for the next page', async () => {
    const { page, context, errors } = await newPlayer(harness.browser, { colorScheme: 'dark', viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    await page.goto(harness.server.url + '/settings');
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.inputValue('[data-theme-setting]')).toBe('system');
    expect(await paper(page)).toBe(DARK_PAPER);
    await page.selectOption('[data-theme-setting]', 'light');
    expect(await paper(page)).toBe(LIGHT_PAPER);
    await page.goto(harness.server.url + '/rules');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    expect(await paper(page)).toBe(LIGHT_PAPER);
    await page.goto(harness.server.url + '/settings');
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.inputValue('[data-theme-setting]')).toBe('light');
    await page.selectOption('[data-theme-setting]', 'system');
    expect(await paper(page)).toBe(DARK_PAPER);
    expect(errors).toEqual([]);
    await context.close();
  });
});
