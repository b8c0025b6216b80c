import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playPly } from './support/room-flow.js';

type Stakes = { win: string; draw: string; loss: string };

async function stakesOf(page: Page, seat: number): Promise<Stakes> {
  const stakes = page.locator(`[data-stakes="${seat}"]`);
  await stakes.waitFor();
  const [win, draw, loss] = await Promise.all(['data-win', 'data-draw', 'data-loss'].map((name) => stakes.getAttribute(name)));
  return { win: win!, draw: draw!, loss: loss! };
}

const seatOf = async (page: Page) => Number(await page.getAttribute('[data-room]', 'data-seat'));

describe('the stakes of a match in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ QUEUE_TICK_MS: '200' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('shows a rated queue match as rated from the queue and the opener on, and the end applies the stakes shown', { timeout: 180_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    for (const [i, { page }] of [a, b].entries()) {
      await page.goto(harness.server.url);
      await page.waitForSelector('[data-me] [data-my-name]');
      await keepAccount(page, `stakes_${i}`);
      await page.reload();
      await page.waitForSelector('[data-rated-choice] input:checked');
    }
    await a.page.click('[data-pool="3+2"]');
    await a.page.click('[data-play]:not([disabled])');
    expect(await a.page.textContent('[data-queue="searching"] [data-queue-kind="rated"]')).toBe('rated');
    await b.page.click('[data-pool="3+2"]');
    await b.page.click('[data-play]:not([disabled])');
    await Promise.all([a.page.waitForURL(/\/r\/[A-Za-z0-9]+$/), b.page.waitForURL(/\/r\/[A-Za-z0-9]+$/)]);

    // From the opener on, both see a rated game and what each result would do to each rating.
    for (const { page } of [a, b]) await page.waitForSelector('[data-opener] >> visible=true');
    expect(await a.page.textContent('[data-stakes-kind="rated"]')).toContain('Rated game');
    expect(await b.page.textContent('[data-stakes-kind="rated"]')).toContain('Ván tính điểm');
    const seatA = await seatOf(a.page);
    const seatB = 1 - seatA;
    const stakes = [await stakesOf(a.page, 0), await stakesOf(a.page, 1)];
    expect(await stakesOf(b.page, 0)).toEqual(stakes[0]);
    expect(await stakesOf(b.page, 1)).toEqual(stakes[1]);
    // Two new accounts: a win and a loss move each by the same large amount, a draw by nothing.
    expect(stakes[0]).toEqual({ win: expect.stringMatching(/^\+\d{2,3}$/), draw: '±0', loss: expect.stringMatching(/^\u2212\d{2,3}$/) });
    expect(await a.page.textContent(`[data-stakes="${seatA}"]`)).toContain(`win ${stakes[seatA]!.win}`);

    await a.page.click('[data-hand="rock"]');
    await b.page.click('[data-hand="scissors"]');
    for (let ply = 0; ply < 4; ply++) {
      await playPly([a, b], ply);
      if (ply === 2) {
        await a.page.waitForSelector('[data-board][data-ply="3"]:not([data-animating])');
        await b.page.waitForSelector('[data-board][data-ply="3"]:not([data-animating])');
        // In play the explaining line gives way to a short badge among the room's details, in each reader's language.
        expect((await a.page.locator('[data-stakes-kind="rated"]').textContent())?.trim()).toBe('Rated');
        expect((await b.page.locator('[data-stakes-kind="rated"]').textContent())?.trim()).toBe('Tính điểm');
        for (const { page } of [a, b]) expect(await page.locator('[data-stakes-kind="rated"]').isVisible()).toBe(true);
        await docsScreenshot(a.page, 'rated-room-1280');
        await docsScreenshot(b.page, 'rated-room-320');
        expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);
      }
    }
    await b.page.waitForSelector('[data-board][data-ply="4"]:not([data-animating])');
    await b.page.click('[data-action="resign"]');
    await b.page.click('[data-action="confirm"]');

    // The end applies exactly what was shown: the winner's "win", the loser's "loss".
    for (const { page } of [a, b]) {
      await page.waitForSelector(`[data-rating-change="${seatA}"]`);
      expect(await page.getAttribute(`[data-rating-change="${seatA}"]`, 'data-delta')).toBe(stakes[seatA]!.win);
      expect(await page.getAttribute(`[data-rating-change="${seatB}"]`, 'data-delta')).toBe(stakes[seatB]!.loss);
      // The match is over: nothing is at stake any more.
      expect(await page.locator('[data-stakes]').count()).toBe(0);
    }
    await docsScreenshot(a.page, 'end-screen-1280', { fullPage: true });
    await b.page.locator('[data-result]').scrollIntoViewIfNeeded();
    await docsScreenshot(b.page, 'end-screen-320');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('shows a game against the computer as casual, the computer with its level and no rating', { timeout: 120_000 }, async () => {
    const me = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 } });
    await me.page.goto(harness.server.url);
    await me.page.waitForSelector('[data-me] [data-my-name]');
    await me.page.click('[data-play-computer] [data-start-computer]:not([disabled])');
    await me.page.waitForSelector('[data-opener]');
    const seat = await seatOf(me.page);
    // My own rating has come: the computer's would have come with it.
    await me.page.waitForSelector(`[data-player="${seat}"] [data-rating]`);
    expect(await me.page.locator(`[data-player="${1 - seat}"] [data-rating]`).count()).toBe(0);
    expect(await me.page.textContent(`[data-player="${1 - seat}"] .name`)).toContain('Computer (level');
    expect(await me.page.getAttribute('[data-stakes-kind]', 'data-stakes-kind')).toBe('casual');
    expect(await me.page.locator('[data-stakes]').count()).toBe(0);

    // Through the opener (a tie replays) into play: the room still says the game is casual.
    for (let round = 0; (await me.page.getAttribute('[data-room]', 'data-status')) === 'opener'; round++) {
      expect(round).toBeLessThan(30);
      const version = await me.page.getAttribute('[data-room]', 'data-version');
      await me.page.click('[data-hand="rock"]:not([disabled])');
      await me.page.waitForFunction((v) => document.querySelector('[data-room]')?.getAttribute('data-version') !== v, version);
      await me.page.waitForSelector('[data-room][data-status="playing"], [data-hand="rock"]:not([disabled])');
    }
    const badge = me.page.locator('[data-stakes-kind]');
    expect(await badge.getAttribute('data-stakes-kind')).toBe('casual');
    expect((await badge.textContent())?.trim()).toBe('Casual');
    expect(await badge.isVisible()).toBe(true);
    expect(me.errors).toEqual([]);
    await me.context.close();
  });
});
