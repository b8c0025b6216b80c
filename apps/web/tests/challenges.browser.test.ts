import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';

const myId = (page: Page) => page.evaluate(async () => ((await (await fetch('/api/me')).json()) as { player: { id: string } }).player.id);
const lobbyNames = (page: Page) => page.$$eval('[data-open-challenge]', (rows) => rows.map((row) => row.getAttribute('data-from')));

describe('challenges in Chromium: the open list, one taken, a direct one declined and one accepted', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('three people meet through the lobby and by direct challenge, on whatever page they have open', { timeout: 180_000 }, async () => {
    const { url } = harness.server;
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { locale: 'vi-VN' });
    const c = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    for (const p of [a, b, c]) await p.page.goto(url);
    for (const p of [a, b, c]) await p.page.waitForSelector('[data-lobby] [data-lobby-empty]');

    // A offers a game: it appears at once in the others' lists, as her own (with a cancel) in hers.
    await a.page.click('[data-offer-open]');
    await a.page.selectOption('[data-challenge-clock]', '3+2');
    await a.page.click('[data-challenge-submit="open"]');
    await a.page.waitForSelector('[data-open-challenge] [data-cancel-challenge]');
    const nameA = (await a.page.textContent('[data-me] [data-my-name]'))!.trim();
    for (const p of [b, c]) await p.page.waitForSelector(`[data-open-challenge][data-from="${nameA}"] [data-take-challenge]`);
    expect(await b.page.textContent('[data-open-challenge] [data-challenge-terms]')).toBe('3 phút + 2 giây · giao hữu · Luật cổ điển');
    expect(await c.page.textContent('[data-open-challenge] [data-challenge-terms]')).toBe('3 min + 2 s · casual · Classic rules');
    expect(await c.page.textContent('[data-open-challenge] [data-challenge-rating]')).toBe('1500');
    expect(await horizontalOverflow(c.page)).toBeLessThanOrEqual(0);
    await docsScreenshot(c.page.locator('[data-lobby]'), 'open-challenges-320');
    await docsScreenshot(b.page.locator('[data-lobby]'), 'open-challenges-1280');
    const profileA = await c.page.getAttribute('[data-open-challenge] a', 'href');

    // B takes it: both go to a room at the opener, and it leaves C's list.
    await b.page.click('[data-take-challenge]');
    await Promise.all([a.page.waitForSelector('[data-opener]'), b.page.waitForSelector('[data-opener]')]);
    expect(a.page.url()).toBe(b.page.url());
    await c.page.waitForSelector('[data-lobby] [data-lobby-empty]');
    expect(await lobbyNames(c.page)).toEqual([]);

    // C challenges A from her profile; A, in her game, gets it there and declines; C is told.
    await c.page.goto(url + profileA!);
    await c.page.waitForSelector('[data-challenge-form="direct"]');
    expect(await horizontalOverflow(c.page)).toBeLessThanOrEqual(0);
    await docsScreenshot(c.page.locator('[data-challenge-player]'), 'challenge-player-320');
    await c.page.tap('[data-challenge-submit="direct"]');
    await c.page.waitForSelector('[data-outgoing-challenge]');
    await a.page.waitForSelector('[data-incoming-challenge] [data-decline-challenge]');
    expect(await a.page.textContent('[data-incoming-challenge] .from')).toMatch(/challenges you$/);
    // It lapses within the minute, and says so.
    const left = Number(await a.page.getAttribute('[data-incoming-challenge] [data-lapses-in]', 'data-lapses-in'));
    expect(left).toBeGreaterThan(30);
    expect(left).toBeLessThanOrEqual(60);
    await docsScreenshot(a.page, 'challenge-received-1280');
    await a.page.click('[data-decline-challenge]');
    await c.page.waitForSelector('[data-notice="info"]');
    expect(await c.page.textContent('[data-notice="info"]')).toContain(`${nameA} declined your challenge.`);
    expect(await c.page.$('[data-outgoing-challenge]')).toBeNull();
    expect(await a.page.$('[data-incoming-challenge]')).toBeNull();

    // C challenges B (in Vietnamese on her side); B accepts and both go to a new room.
    const idB = await myId(b.page);
    await c.page.goto(`${url}/p/${idB}`);
    await c.page.waitForSelector('[data-challenge-form="direct"]');
    await c.page.tap('[data-challenge-submit="direct"]');
    await b.page.waitForSelector('[data-incoming-challenge] [data-accept-challenge]');
    expect(await b.page.textContent('[data-incoming-challenge] .from')).toMatch(/thách bạn một ván$/);
    await docsScreenshot(c.page, 'challenge-sent-320');
    const before = b.page.url();
    await b.page.click('[data-accept-challenge]');
    await Promise.all([b.page.waitForURL((u) => u.href !== before), c.page.waitForURL(/\/r\//)]);
    await Promise.all([b.page.waitForSelector('[data-opener]'), c.page.waitForSelector('[data-opener]')]);
    expect(b.page.url()).toBe(c.page.url());

    // From the end of that game (aborted before its first move), B challenges C again, on the same terms.
    await b.page.click('[data-action="abort"]');
    await b.page.click('[data-action="confirm"]');
    await b.page.click('[data-challenge-back]');
    await c.page.waitForSelector('[data-incoming-challenge] [data-accept-challenge]');
    expect(await c.page.textContent('[data-incoming-challenge] .muted')).toBe('5 min + 3 s · casual · Classic rules');
    const ended = c.page.url();
    await c.page.tap('[data-accept-challenge]');
    await Promise.all([b.page.waitForURL((u) => u.href !== ended), c.page.waitForURL((u) => u.href !== ended)]);
    await Promise.all([b.page.waitForSelector('[data-opener]'), c.page.waitForSelector('[data-opener]')]);
    expect(b.page.url()).toBe(c.page.url());
    for (const p of [a, b, c]) expect(p.errors).toEqual([]);
  });
});
