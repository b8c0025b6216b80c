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
    // Once the page runs: a click on the server's markup before that changes nothing.
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.click('[data-lang="vi"]');
    await page.click('[data-nav-menu]');
    await page.click('[data-nav-settings]');
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.textContent('main h1')).toBe('Cài đặt');
    await page.click('[data-lang="en"]');
    expect(await page.textContent('main h1')).toBe('Settings');
    expect(await page.title()).toBe('Settings · Ô ăn quan');

    expect(await page.isChecked('[data-sound-toggle]')).toBe(true);
    expect(await page.inputValue('[data-speed]')).toBe('normal');
    await page.click('[data-sound-toggle]');
    await page.selectOption('[data-speed]', 'fast');
    await page.reload();
    // The server draws the defaults; this browser's choices are there once the page is ready.
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.isChecked('[data-sound-toggle]')).toBe(false);
    expect(await page.inputValue('[data-speed]')).toBe('fast');
    expect(await page.evaluate(() => [localStorage.getItem('oanquan.sound'), localStorage.getItem('oanquan.speed')])).toEqual(['off', 'fast']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('make sowing instant under the system’s reduced motion until a speed is chosen', async () => {
    const { page, context, errors } = await newPlayer(harness.browser, { speed: null, reducedMotion: 'reduce' });
    await page.goto(harness.server.url + '/settings');
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.inputValue('[data-speed]')).toBe('instant');
    expect(await page.isVisible('[data-speed-reduced]')).toBe(true);
    await page.selectOption('[data-speed]', 'slow');
    expect(await page.isVisible('[data-speed-reduced]')).toBe(false);
    await page.reload();
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.inputValue('[data-speed]')).toBe('slow');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('turn the notifications the browser allows off and on again', async () => {
    const { page, context, errors } = await newPlayer(harness.browser);
    await context.grantPermissions(['notifications'], { origin: harness.server.url });
    await page.goto(harness.server.url + '/settings');
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.isChecked('[data-notify-toggle]')).toBe(true);
    await page.click('[data-notify-toggle]');
    expect(await page.evaluate(() => localStorage.getItem('oanquan.notifications'))).toBe('off');
    await page.reload();
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.isChecked('[data-notify-toggle]')).toBe(false);
    await page.click('[data-notify-toggle]');
    expect(await page.isChecked('[data-notify-toggle]')).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('oanquan.notifications'))).toBe('on');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keep the box empty when the browser refuses notifications', async () => {
    const { page, context, errors } = await newPlayer(harness.browser);
    await page.goto(harness.server.url + '/settings');
    await page.waitForSelector('[data-settings-page][data-ready]');
    expect(await page.isChecked('[data-notify-toggle]')).toBe(false);
    await page.click('[data-notify-toggle]');
    await page.waitForFunction(() => localStorage.getItem('oanquan.notifications') === 'off');
    expect(await page.isChecked('[data-notify-toggle]')).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
