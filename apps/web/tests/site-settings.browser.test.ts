import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startHarness, type Harness } from './support/harness.js';

describe('the site settings in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('are reached from the header menu on a phone, in both languages, and keep sound and speed for every page', async () => {
    const { page, context, errors } = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, speed: null });
    await page.goto(harness.server.url + '/rules');
    await page.click('[data-lang="vi"]');
    await page.click('[data-nav-menu]');
    await page.click('[data-nav-settings]');
    await page.waitForSelector('[data-settings-page]');
    expect(await page.textContent('main h1')).toBe('Cài đặt');
    await page.click('[data-lang="en"]');
    expect(await page.textContent('main h1')).toBe('Settings');
    expect(await page.title()).toBe('Settings · Ô ăn quan');

    expect(await page.isChecked('[data-sound-toggle]')).toBe(true);
    expect(await page.inputValue('[data-speed]')).toBe('normal');
    await page.click('[data-sound-toggle]');
    await page.selectOption('[data-speed]', 'fast');
    await page.reload();
    await page.waitForSelector('[data-settings-page]');
    expect(await page.isChecked('[data-sound-toggle]')).toBe(false);
    expect(await page.inputValue('[data-speed]')).toBe('fast');
    expect(await page.evaluate(() => [localStorage.getItem('oanquan.sound'), localStorage.getItem('oanquan.speed')])).toEqual(['off', 'fast']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('make sowing instant under the system’s reduced motion until a speed is chosen', async () => {
    const { page, context, errors } = await newPlayer(harness.browser, { speed: null, reducedMotion: 'reduce' });
    await page.goto(harness.server.url + '/settings');
    await page.waitForSelector('[data-settings-page]');
    expect(await page.inputValue('[data-speed]')).toBe('instant');
    expect(await page.isVisible('[data-speed-reduced]')).toBe(true);
    await page.selectOption('[data-speed]', 'slow');
    expect(await page.isVisible('[data-speed-reduced]')).toBe(false);
    await page.reload();
    await page.waitForSelector('[data-settings-page]');
    expect(await page.inputValue('[data-speed]')).toBe('slow');
    expect(errors).toEqual([]);
    await context.close();
  });
});
