import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { playFinishedGame } from './support/live-game.js';

/** A browser that already holds this guest's token. */
async function as(harness: Harness, token: string, options: Parameters<typeof newPlayer>[1] = {}): Promise<Player> {
  const player = await newPlayer(harness.browser, options);
  await player.context.addInitScript((t) => localStorage.setItem('oanquan.token', t), token);
  return player;
}

/** Whether the whole element lies inside the visible part of the page. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => {
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
  });
}

const attributes = (page: Page, selector: string, name: string) => page.$$eval(selector, (elements, n) => elements.map((e) => e.getAttribute(n)), name);

describe('the end screen in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('reads in one order, the viewer first; puts Rematch first in a friend room and keeps an offer in sight on a 320 px phone', { timeout: 150_000 }, async () => {
    const game = await playFinishedGame(harness.server.url, 7, { initialSeconds: 180, incrementSeconds: 2 });
    const a = await as(harness, game.players[0].token);
    // The second player, seat 1, on a small phone: their own row is the bottom one of their board.
    const b = await as(harness, game.players[1].token, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    for (const { page } of [a, b]) {
      await page.goto(`${harness.server.url}/r/${game.roomCode}`);
      await page.waitForSelector('[data-breakdown][data-sweep-done]');
    }

    // Score line, piles, table columns and rating lines: the viewer's side first, then the other's.
    for (const [seat, { page }] of [[0, a], [1, b]] as const) {
      const order = [String(seat), String(1 - seat)];
      expect(await attributes(page, '[data-result] [data-score-seat]', 'data-score-seat')).toEqual(order);
      expect(await attributes(page, '[data-pile]', 'data-pile')).toEqual(order);
      expect(await attributes(page, '[data-breakdown-row="total"] td', 'data-seat')).toEqual(order);
      // The mini-board's bottom row is the viewer's own, as on their board.
      const bottomRow = await page.$$eval('[data-sweep-square]', (squares) => squares.slice(-5).map((s) => Number(s.getAttribute('data-sweep-square'))));
      expect(bottomRow).toEqual([1, 2, 3, 4, 5].map((k) => 6 * seat + k));
    }

    // A friend room: Rematch is the first action and the main one; a new opponent from the queue, then a challenge to this one, come after it.
    for (const { page } of [a, b]) {
      const buttons = await page.$$eval('[data-end-actions] button', (list) =>
        list.map((button) => [
          button.getAttribute('data-action') ?? (button.hasAttribute('data-new-opponent-button') ? 'new-opponent' : button.hasAttribute('data-challenge-back') ? 'challenge' : ''),
          button.classList.contains('primary'),
        ]),
      );
      expect(buttons).toEqual([
        ['rematch', true],
        ['new-opponent', false],
        ['challenge', false],
      ]);
    }

    // A offers; B, scrolled to the top of a long end screen on a 320 × 640 phone, sees the offer and can accept it at once.
    await b.page.evaluate(() => window.scrollTo(0, 0));
    await a.page.click('[data-action="rematch"]');
    await b.page.waitForSelector('[data-rematch-wanted]');
    expect(await b.page.getAttribute('[data-rematch-wanted]', 'role')).toBe('status');
    for (const y of [0, 300]) {
      await b.page.evaluate((top) => window.scrollTo(0, top), y);
      expect(await inView(b.page, '[data-rematch-wanted]')).toBe(true);
      expect(await inView(b.page, '[data-action="rematch"]')).toBe(true);
    }
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);
    await b.page.click('[data-action="rematch"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-room][data-status="opener"] [data-opener]');

    // The replay names its stakes, and hints at keys only where there are keys: not on the phone's touch screen.
    for (const { page } of [a, b]) {
      await page.goto(`${harness.server.url}/m/${game.matchId}`);
      await page.waitForSelector('[data-replay] [data-replay-kind="casual"]');
    }
    expect(await a.page.isVisible('[data-replay] p.keys')).toBe(true);
    expect(await b.page.isVisible('[data-replay] p.keys')).toBe(false);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
