import { SESSION_COOKIE } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, startLiveGame } from './support/live-game.js';

/** How far `inner` reaches outside `outer` on any side, in px (0 when whole inside). */
const outside = (page: Page, inner: string, outer: string) =>
  page.evaluate(
    ([i, o]) => {
      const a = document.querySelector(i)!.getBoundingClientRect();
      const b = document.querySelector(o)!.getBoundingClientRect();
      return Math.max(0, b.top - a.top, a.bottom - b.bottom, b.left - a.left, a.right - b.right);
    },
    [inner, outer] as const,
  );

describe('the room on a phone in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('at the end of a game on a 320 and a 390 px phone, shows the last move in words whole, and "(bạn)" whole beside a long name', { timeout: 180_000 }, async () => {
    // Seed 3 ends on a long move (a relay, two quan and 15 dân taken) by seat 1; long names make its sentence longer still.
    const game = await playFinishedGame(harness.server.url, 3, null, [], ['Nguyen_Thi_Thanh_Huong', 'Tran_Van_Minh_Khoa_Long']);
    for (const width of [320, 390]) {
      const player = await newPlayer(harness.browser, { viewport: { width, height: 740 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
      await player.context.addCookies([{ name: SESSION_COOKIE, value: game.players[1].token, url: harness.server.url }]);
      await player.page.goto(`${harness.server.url}/r/${game.roomCode}`);
      await player.page.waitForSelector('[data-breakdown][data-sweep-done]');
      await player.page.waitForSelector(`.moves [aria-current="true"][data-ply="${game.moves.length}"]`);
      const entry = `.moves [data-ply="${game.moves.length}"]`;
      expect(await player.page.textContent(`${entry} .say`)).toMatch(/^Tran_Van_Minh_Khoa_Long rải ô \d của mình .+ Ván đã kết thúc\.$/);
      if (width === 320) {
        // The case at hand: one entry taller than the list is on a phone.
        const [entryHeight, listHeight] = await player.page.$eval(entry, (e) => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e.closest('ol')!).maxHeight)]);
        expect(entryHeight).toBeGreaterThan(listHeight);
      }
      expect(await outside(player.page, entry, '.moves ol')).toBeLessThanOrEqual(0.5);
      // Their own panel: the long name gives way, "(bạn)" is whole inside the line.
      const mine = '[data-player="1"] .name';
      expect(await player.page.textContent(`${mine} .you`)).toBe('(bạn)');
      expect(await outside(player.page, `${mine} .you`, mine)).toBeLessThanOrEqual(0.5);
      expect(await horizontalOverflow(player.page)).toBeLessThanOrEqual(0);
      await docsScreenshot(player.page, `end-of-game-${width}`, { fullPage: true });
      expect(player.errors).toEqual([]);
      await player.context.close();
    }
  });

  it('highlights in a spectator’s move list the move the board is sowing, not a later one that came meanwhile', { timeout: 120_000 }, async () => {
    const game = await startLiveGame(harness.server.url, 5);
    try {
      const watcher = await newPlayer(harness.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, speed: 'slow' });
      await watcher.page.goto(`${harness.server.url}/r/${game.roomCode}`);
      await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-board]');
      // Two fast players: the second move comes while the first is still being sown, slowly, on the spectator's board.
      await game.play();
      await game.play();
      /** The ply highlighted at the moment the board sows `ply` with both moves listed, read in one frame. */
      const highlightedWhileSowing = async (ply: number) =>
        (
          await watcher.page.waitForFunction((sown) => {
            const room = document.querySelector('[data-room]');
            if (room?.getAttribute('data-sowing') !== String(sown) || !document.querySelector('.moves [data-ply="2"]')) return false;
            return document.querySelector('.moves [aria-current="true"]')?.getAttribute('data-ply') ?? 'none';
          }, ply)
        ).jsonValue();
      expect(await highlightedWhileSowing(1)).toBe('1');
      expect(await highlightedWhileSowing(2)).toBe('2');
      await watcher.page.waitForSelector('[data-room]:not([data-sowing]) [data-board][data-ply="2"]');
      expect(await watcher.page.getAttribute('.moves [aria-current="true"]', 'data-ply')).toBe('2');
      expect(watcher.errors).toEqual([]);
      await watcher.context.close();
    } finally {
      game.close();
    }
  });
});
