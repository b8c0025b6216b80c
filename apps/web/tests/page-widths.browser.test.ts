import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, keepAccount, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { playFinishedGame, type FinishedGame } from './support/live-game.js';

/** The smallest box a finger can be asked to hit on a touch screen (WCAG 2.5.5, Apple and Android guidelines). */
const FINGER = 44;

/** How far the page scrolls sideways now: what is wider than the viewport. */
const sideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** Every visible link and button inside `selector`, with its size as laid out. */
const targets = (page: Page, selector: string) =>
  page.$$eval(`${selector} a, ${selector} button`, (elements) =>
    elements
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { what: (element.getAttribute('data-lang') ?? element.textContent ?? '').trim() || element.outerHTML.slice(0, 60), width: box.width, height: box.height };
      })
      .filter((target) => target.width > 0 && target.height > 0),
  );

/** The main pages a newcomer goes through, each with what shows it has rendered. */
function mainPages(game: FinishedGame): [string, string][] {
  return [
    ['/', '[data-me] [data-my-name]'],
    ['/rules', '#rated'],
    ['/puzzles', 'main h1'],
    ['/leaderboard', 'main h1'],
    ['/settings', '[data-settings-page]'],
    [`/p/${game.players[0].player.id}`, '[data-profile-name]'],
    [`/r/${game.roomCode}`, '[data-room][data-status="ended"] [data-result]'],
  ];
}

describe('pages at every width in Chromium', () => {
  let harness: Harness;
  let game: FinishedGame;
  beforeAll(async () => {
    harness = await startHarness();
    game = await playFinishedGame(harness.server.url, 11);
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** Opens each main page and widens the window from 320 to 1440 px, 10 px at a time up to 800 (phones and tablets), then 20; answers where anything scrolled sideways. */
  async function walkWidths(player: Player): Promise<string[]> {
    const overflowing: string[] = [];
    for (const [path, ready] of mainPages(game)) {
      await player.page.setViewportSize({ width: 320, height: 800 });
      await player.page.goto(harness.server.url + path);
      await player.page.waitForSelector(ready);
      for (let width = 320; width <= 1440; width += width < 800 ? 10 : 20) {
        await player.page.setViewportSize({ width, height: 800 });
        // One frame, so that whatever a script lays out after a resize has been laid out.
        await player.page.evaluate(() => new Promise(requestAnimationFrame));
        const by = await sideways(player.page);
        if (by > 0) overflowing.push(`${path} at ${width} px: ${by} px`);
      }
    }
    return overflowing;
  }

  it('never scroll sideways from 320 to 1440 px, for a guest and for an account with a long name', { timeout: 600_000 }, async () => {
    const guest = await newPlayer(harness.browser);
    const account = await newPlayer(harness.browser, { locale: 'vi-VN' });
    await account.page.goto(harness.server.url);
    await account.page.waitForSelector('[data-me] [data-my-name]');
    await keepAccount(account.page, 'Nguyen_Thi_Thanh_Huong');
    expect(await walkWidths(guest)).toEqual([]);
    expect(await walkWidths(account)).toEqual([]);
    expect([...guest.errors, ...account.errors]).toEqual([]);
    await Promise.all([guest.context.close(), account.context.close()]);
  });

  it('gives a finger 44 × 44 px for every header control of a 320 and a 390 px phone, its links behind a menu', { timeout: 240_000 }, async () => {
    for (const width of [320, 390]) {
      const phone = await newPlayer(harness.browser, { viewport: { width, height: 740 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
      await phone.page.goto(harness.server.url);
      await phone.page.waitForSelector('[data-me] [data-my-name]');
      await keepAccount(phone.page, `Tran_Minh_Khoa_${width}`);
      await phone.page.reload();
      await phone.page.waitForSelector('header.site [data-me-name]');
      await docsScreenshot(phone.page, `header-${width}`, { clip: { x: 0, y: 0, width, height: 200 } });
      expect(await sideways(phone.page)).toBeLessThanOrEqual(0);
      // The language switch is whole, inside the window.
      const switchBox = (await phone.page.locator('header.site [data-lang="en"]').boundingBox())!;
      expect(switchBox.x + switchBox.width).toBeLessThanOrEqual(width);
      for (const target of await targets(phone.page, 'header.site')) {
        expect(target.width, target.what).toBeGreaterThanOrEqual(FINGER);
        expect(target.height, target.what).toBeGreaterThanOrEqual(FINGER);
      }
      // The page's own lists (the computer's level) take a finger too.
      const lists = await phone.page.$$eval('select', (all) => all.map((list) => list.getBoundingClientRect().height).filter((height) => height > 0));
      expect(lists.length).toBeGreaterThan(0);
      for (const height of lists) expect(height).toBeGreaterThanOrEqual(FINGER);

      // The menu opens on the links, each as large as a finger, and takes the reader where they lead.
      await phone.page.tap('header.site [data-nav-menu]');
      await phone.page.waitForSelector('header.site nav [data-nav-rules] >> visible=true');
      await docsScreenshot(phone.page, `header-menu-${width}`, { clip: { x: 0, y: 0, width, height: 310 } });
      const links = await targets(phone.page, 'header.site nav');
      expect(links.map((link) => link.what)).toEqual(['Luật chơi', 'Câu đố', 'Bảng xếp hạng', 'Cài đặt']);
      for (const link of links) {
        expect(link.width, link.what).toBeGreaterThanOrEqual(FINGER);
        expect(link.height, link.what).toBeGreaterThanOrEqual(FINGER);
      }
      expect(await sideways(phone.page)).toBeLessThanOrEqual(0);
      await phone.page.tap('header.site nav [data-nav-puzzles]');
      await phone.page.waitForURL(/\/puzzles$/);
      // Having taken the reader there, the menu is closed again.
      await phone.page.waitForSelector('header.site nav [data-nav-rules]', { state: 'hidden' });
      expect(await phone.page.getAttribute('header.site [data-nav-menu]', 'aria-expanded')).toBe('false');
      expect(phone.errors).toEqual([]);
      await phone.context.close();
    }
  });
});
