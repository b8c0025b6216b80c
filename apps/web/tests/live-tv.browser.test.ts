import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

const codeOf = (link: string) => link.split('/r/')[1]!;

async function firstMove(page: Page): Promise<void> {
  await page.click('[data-board] [data-legal]');
  await page.click('[data-board] [data-dir="1"]');
}

describe('games in play in Chromium: the "Live now" list and the watch page', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('shows the games in play with boards that follow the moves and spectators counted, and the watch page moves on when its game ends', { timeout: 180_000 }, async () => {
    const { url } = harness.server;
    const players = await Promise.all([0, 1, 2, 3].map(() => newPlayer(harness.browser)));
    const [a, b, c, d] = players as [Player, Player, Player, Player];
    const games = new Map<string, [Player, Player]>();
    for (const [x, y] of [[a, b], [c, d]] as const) {
      const link = await openRoom(url, x, y);
      await playOpener(x, y);
      games.set(codeOf(link), [x, y]);
    }
    const viewer = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    await viewer.page.goto(url);
    const row = (code: string) => `[data-live-now] [data-live-game] a[href="/r/${code}"]`;
    for (const code of games.keys()) await viewer.page.waitForSelector(row(code));

    // The small boards follow the games: a move shows on them within a refresh. (A first move also keeps a game from being aborted unplayed.)
    for (const [code, [x]] of games) {
      await firstMove(x.page);
      await waitForPly(x.page, 1);
      await viewer.page.waitForSelector(`${row(code)} [data-mini-board][data-ply="1"]`);
    }

    // The watch page follows the top game, and the list counts its watcher.
    const tv = await newPlayer(harness.browser);
    await tv.page.goto(`${url}/tv`);
    await tv.page.waitForSelector('[data-tv]:not([data-tv=""]) [data-room][data-seat="spectator"]');
    const watched = (await tv.page.getAttribute('[data-tv]', 'data-tv'))!;
    expect(games.has(watched)).toBe(true);
    await viewer.page.waitForSelector(`${row(watched)} [data-spectators="1"]`);
    expect(await horizontalOverflow(viewer.page)).toBeLessThanOrEqual(0);
    await docsScreenshot(viewer.page.locator('[data-live-now]'), 'live-now-320');
    await docsScreenshot(tv.page, 'watch-top-game-1280');

    // Its game ends: the end is shown, then the page moves on to the other game.
    const [resigner] = games.get(watched)!;
    await resigner.page.click('[data-action="resign"]');
    await resigner.page.click('[data-action="confirm"]');
    await tv.page.waitForSelector('[data-result]');
    const other = [...games.keys()].find((code) => code !== watched)!;
    await tv.page.waitForSelector(`[data-tv="${other}"] [data-room][data-seat="spectator"]`, { timeout: 20_000 });
    await viewer.page.waitForFunction((code) => !document.querySelector(`[data-live-now] a[href="/r/${code}"]`), watched);
    for (const player of [a, b, c, d, viewer, tv]) expect(player.errors).toEqual([]);
  });
});
