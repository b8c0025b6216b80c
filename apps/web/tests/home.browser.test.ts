import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';

describe('the home page in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('is served by the game server and renders', async () => {
    const { page, context } = await newPlayer(harness.browser);
    await page.goto(harness.server.url);
    await expect(page.title()).resolves.toBe('Ô ăn quan');
    expect(await page.locator('h1').textContent()).toBe('Ô ăn quan');
    await context.close();
  });

  it('speaks the browser’s language and switches on request, remembering the choice', async () => {
    const { page, errors, context } = await newPlayer(harness.browser, { locale: 'en-US' });
    await page.goto(harness.server.url);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect((await page.textContent('[data-play]'))?.trim()).toBe('Play');
    expect((await page.textContent('[data-create]'))?.trim()).toBe('Create room');

    // Once the page runs (the guest it made is shown): a click before that changes nothing.
    await page.waitForSelector('[data-me] [data-my-name]');
    await page.click('[data-lang="vi"]');
    expect((await page.textContent('[data-play]'))?.trim()).toBe('Chơi ngay');
    expect((await page.textContent('[data-create]'))?.trim()).toBe('Tạo phòng');
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    expect(await page.getAttribute('[data-lang="vi"]', 'aria-pressed')).toBe('true');

    await page.reload();
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    expect((await page.textContent('[data-play]'))?.trim()).toBe('Chơi ngay');
    await page.click('[data-lang="en"]');
    expect((await page.textContent('[data-play]'))?.trim()).toBe('Play');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('greets a Vietnamese browser in Vietnamese', async () => {
    const { page, context } = await newPlayer(harness.browser, { locale: 'vi-VN' });
    await page.goto(harness.server.url);
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    expect((await page.textContent('[data-play]'))?.trim()).toBe('Chơi ngay');
    await context.close();
  });

  it('keeps the guest across visits and lets them change their name', async () => {
    const { page, errors, context } = await newPlayer(harness.browser);
    await page.goto(harness.server.url);
    const first = await page.textContent('[data-my-name]');
    await page.reload();
    expect(await page.textContent('[data-my-name]')).toBe(first);
    await page.click('[data-rename]');
    await page.fill('[data-name-input]', 'Bé Na');
    await page.click('[data-name-save]');
    await page.waitForSelector('[data-my-name]:text-is("Bé Na")');
    await page.waitForSelector('[data-me-name]:text-is("Bé Na")');
    await page.reload();
    expect(await page.textContent('[data-my-name]')).toBe('Bé Na');
    expect(await page.textContent('[data-rating]')).toBe('1500');

    // A session the server no longer has (cleared cookies, or a forgotten token left in localStorage) gives a new guest, not an error.
    await context.clearCookies();
    await page.evaluate(() => localStorage.setItem('oanquan.token', 'forgotten'));
    await page.reload();
    await page.waitForSelector('[data-my-name]');
    expect(await page.textContent('[data-my-name]')).not.toBe('Bé Na');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves a first visit, and a returning guest, the heading, play area and guest note, painted before the session answers; nothing moves when it does', async () => {
    // In the page as served to a browser without a session cookie.
    const served = await (await fetch(harness.server.url, { headers: { 'accept-language': 'en' } })).text();
    expect(served).toMatch(/<h1[^>]*>Ô ăn quan<\/h1>/);
    expect(served).toMatch(/<p[^>]*data-casual-hint[^>]*>\s*As a guest you play casual games; rated games need an account\./);
    expect(served).toContain('data-play');

    const { page, errors, context } = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true });
    // The session request is held until the page has been looked at.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    let asked = false;
    await page.route('**/api/session', async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto(harness.server.url);
    await page.waitForFunction(() => document.querySelector('[data-play]:not([disabled])') !== null);
    await expect.poll(() => asked).toBe(true);
    const boxes = () =>
      page.evaluate(() =>
        ['h1', '[data-casual-hint]', '[data-play]', '[data-me]'].map((selector) => {
          const box = document.querySelector(selector)!.getBoundingClientRect();
          return { selector, x: box.x, y: box.y, width: box.width, height: box.height, seen: getComputedStyle(document.querySelector(selector)!).visibility };
        }),
      );
    const before = await boxes();
    expect(await page.$('[data-my-name]')).toBeNull();
    expect(before.every((box) => box.seen === 'visible' && box.height > 0)).toBe(true);

    answer();
    await page.waitForSelector('[data-me] [data-my-name]');
    await page.waitForSelector('[data-me] [data-rating]');
    expect(await boxes()).toEqual(before);
    expect(await horizontalOverflow(page)).toBe(0);

    // Back with the session's cookie, the page is served as the guest's again, before it asks who that is.
    await page.unroute('**/api/session');
    let answerMe!: () => void;
    const heldMe = new Promise<void>((resolve) => (answerMe = resolve));
    await page.route('**/api/me', async (route) => {
      await heldMe;
      await route.continue();
    });
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-play]:not([disabled])') !== null);
    expect(await page.$('[data-my-name]')).toBeNull();
    expect(await boxes()).toEqual(before);
    answerMe();
    await page.waitForSelector('[data-me] [data-rating]');
    expect(await boxes()).toEqual(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits 320 px without horizontal scrolling, custom options and lists included', async () => {
    const { page, errors, context } = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, locale: 'vi-VN' });
    await page.goto(harness.server.url);
    await page.waitForSelector('[data-my-name]');
    await page.click('[data-preset="custom"]');
    await page.click('[data-clock-choice="custom"]');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    for (const path of ['/leaderboard', '/r/NoSuchRoom0', '/m/00000000-0000-4000-8000-000000000000']) {
      await page.goto(harness.server.url + path);
      await page.waitForSelector('[role="alert"], table, .card');
      expect({ path, overflow: await horizontalOverflow(page) }).toEqual({ path, overflow: 0 });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('answers 404 with a way home for a room, a match or a player that does not exist', async () => {
    const { page, context } = await newPlayer(harness.browser);
    const missing = [
      ['/r/NoSuchRoom0', 'There is no room with this link.'],
      ['/m/00000000-0000-4000-8000-000000000000', 'There is no such match.'],
      ['/m/not-a-match', 'There is no such match.'],
      ['/p/00000000-0000-4000-8000-000000000000', 'Not found.'],
    ] as const;
    for (const [path, text] of missing) {
      const response = await page.goto(`${harness.server.url}${path}`);
      expect({ path, status: response?.status() }).toEqual({ path, status: 404 });
      await page.waitForSelector('[data-error-status="404"]');
      expect(await page.textContent('[data-error-status] p')).toBe(text);
    }
    await page.click('[data-home-link]');
    await page.waitForSelector('[data-play]');
    await context.close();
  });
});
