import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';
import { openRoom, playOpener, playPly } from './support/room-flow.js';

interface Watched {
  asked: number;
  notified: string[];
}

/** Counts the page's permission requests and the notifications it shows; both still reach the browser. */
async function watchNotifications(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const watched: Watched = { asked: 0, notified: [] };
    (window as unknown as { watched: Watched }).watched = watched;
    const Native = window.Notification;
    const ask = Native.requestPermission.bind(Native);
    class Recorded extends Native {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        watched.notified.push(title);
      }
    }
    Recorded.requestPermission = () => {
      watched.asked += 1;
      return ask();
    };
    window.Notification = Recorded;
  });
}

const watched = (page: Page) => page.evaluate(() => (window as unknown as { watched: Watched }).watched);
const icon = (page: Page) => page.getAttribute('link[rel~="icon"]', 'href');

/** What the browser does when another tab comes in front, or this one again. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hide) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hide ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hide });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

describe('a hidden tab calls its player back, in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('marks the title and the icon on the player’s move until the tab is seen, asking for notifications once and never on load', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await watchNotifications(b.context);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    const roomTitle = await b.page.title();
    expect(roomTitle).toMatch(/ · Ô ăn quan$/);
    expect(await watched(b.page)).toEqual({ asked: 0, notified: [] });

    await setHidden(b.page, true);
    await playPly([a, b], 0);
    await b.page.waitForFunction((title) => document.title === `● Your move — ${title}`, roomTitle);
    expect(await icon(b.page)).toBe('/favicon-alert.svg');
    await b.page.waitForFunction(() => localStorage.getItem('oanquan.notifications') !== null);
    // Chromium without a person to answer refuses: the choice is kept, and not asked again.
    expect(await watched(b.page)).toEqual({ asked: 1, notified: [] });
    expect(await b.page.evaluate(() => localStorage.getItem('oanquan.notifications'))).toBe('off');

    await setHidden(b.page, false);
    expect(await b.page.title()).toBe(roomTitle);
    expect(await icon(b.page)).toBe('/favicon.svg');

    // Seen, B plays; hidden again, the next move marks the tab again without asking.
    await playPly([a, b], 1);
    await setHidden(b.page, true);
    expect(await b.page.title()).toBe(roomTitle);
    await playPly([a, b], 2);
    await b.page.waitForFunction((title) => document.title === `● Your move — ${title}`, roomTitle);
    expect((await watched(b.page)).asked).toBe(1);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('shows a challenge to a hidden tab in its title and as a notification the browser allowed', async () => {
    const a = await newPlayer(harness.browser, { locale: 'vi-VN' });
    const c = await newPlayer(harness.browser);
    await a.context.grantPermissions(['notifications'], { origin: harness.server.url });
    await watchNotifications(a.context);
    await a.page.goto(harness.server.url);
    await a.page.waitForSelector('[data-me] [data-my-name]');
    // A guest has no profile until they sit down; an account has one.
    await keepAccount(a.page, 'hidden-tab');
    await a.page.reload();
    const profile = await a.page.getAttribute('[data-me-name]', 'href');
    await setHidden(a.page, true);
    expect(await a.page.title()).toBe('Ô ăn quan');

    // C comes in by the home page, as a newcomer does, and challenges A from her profile.
    await c.page.goto(harness.server.url);
    await c.page.waitForSelector('[data-me] [data-my-name]');
    await c.page.goto(harness.server.url + profile);
    const nameC = (await c.page.textContent('[data-me-name]'))!.trim();
    await c.page.click('[data-challenge-submit="direct"]');
    await a.page.waitForFunction((name) => document.title === `● ${name} thách đấu bạn — Ô ăn quan`, nameC);
    expect(await icon(a.page)).toBe('/favicon-alert.svg');
    expect(await watched(a.page)).toEqual({ asked: 0, notified: [`${nameC} thách đấu bạn — Ô ăn quan`] });

    await setHidden(a.page, false);
    expect(await a.page.title()).toBe('Ô ăn quan');
    expect(await icon(a.page)).toBe('/favicon.svg');
    await a.page.waitForSelector('[data-incoming-challenge]');
    expect([...a.errors, ...c.errors]).toEqual([]);
    await Promise.all([a.context.close(), c.context.close()]);
  });
});
