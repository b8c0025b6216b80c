import { newGame, play } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

const heard = (page: Page) => page.$$eval('[data-phrases-heard] li', (items) => items.map((li) => li.textContent?.trim()));

/** Every sound the page played, in order, as its sound module announces them. */
async function sounds(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as unknown as { played?: string[] }).played ?? [])]);
}
const recordSounds = (page: Page) =>
  page.addInitScript(() => {
    const played: string[] = [];
    (window as unknown as { played: string[] }).played = played;
    window.addEventListener('oanquan:sound', (event) => played.push((event as CustomEvent<string>).detail));
  });

/** Plays the given square, or the first legal one. */
/** Opens the folded phrase picker and says one. */
async function say(page: Page, phrase: string, tap = false): Promise<void> {
  if (!(await page.$('[data-phrase-picker][open]'))) await (tap ? page.tap('[data-phrase-picker] summary') : page.click('[data-phrase-picker] summary'));
  await (tap ? page.tap(`[data-say="${phrase}"]`) : page.click(`[data-say="${phrase}"]`));
}

async function move(page: Page, square?: number): Promise<void> {
  await page.click(square === undefined ? '[data-board] [data-legal]' : `[data-board] [data-square="${square}"][data-legal]`);
  await page.click('[data-board] [data-dir="1"]');
}

describe('playing together in Chromium: quick phrases and sounds', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("shows each phrase in the reader's language, keeps spectators' among spectators, and mutes the opponent in one click", { timeout: 120_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { locale: 'vi-VN' });
    const link = await openRoom(harness.server.url, a, b);
    const watcher = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    await watcher.page.goto(link);
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-quick-phrases]');
    // Before the game and during it.
    await say(a.page, 'good-luck');
    await b.page.waitForSelector('[data-phrases-heard] [data-phrase="good-luck"]');
    const nameA = (await a.page.textContent('[data-player="0"] .name a'))!.trim();
    expect(await heard(b.page)).toEqual([`${nameA}: Chúc may mắn`]);
    expect(await heard(a.page)).toEqual([`${nameA}: Good luck`]);
    await watcher.page.waitForSelector('[data-phrases-heard] [data-phrase="good-luck"]');
    await playOpener(a, b);
    await say(b.page, 'thanks');
    await a.page.waitForSelector('[data-phrases-heard] [data-phrase="thanks"]');
    expect(await a.page.textContent('[data-phrase="thanks"]')).toContain('Thanks');
    expect(await b.page.textContent('[data-phrase="thanks"]')).toContain('Cảm ơn');

    // A spectator's reaction: the spectator sees it, the players never do.
    await say(watcher.page, 'nice', true);
    await watcher.page.waitForSelector('[data-phrases-heard] [data-phrase="nice"][data-from-seat="spectator"]');
    await say(b.page, 'gg');
    await a.page.waitForSelector('[data-phrases-heard] [data-phrase="gg"]');
    await watcher.page.waitForSelector('[data-phrases-heard] [data-phrase="gg"]');
    for (const page of [a.page, b.page]) expect(await page.$('[data-phrase="nice"]')).toBeNull();
    expect(await horizontalOverflow(watcher.page)).toBeLessThanOrEqual(0);
    await docsScreenshot(watcher.page.locator('[data-quick-phrases]'), 'quick-phrases-320');
    await docsScreenshot(a.page.locator('[data-quick-phrases]'), 'quick-phrases-1280');

    // One click mutes the opponent: what they said goes, what they say is not shown; the spectator still sees it.
    await a.page.click('[data-mute]');
    expect(await a.page.getAttribute('[data-mute]', 'aria-pressed')).toBe('true');
    expect(await heard(a.page)).toEqual([`${nameA}: Good luck`]);
    await move(a.page, 2);
    await waitForPly(b.page, 1);
    await say(b.page, 'close');
    await watcher.page.waitForSelector('[data-phrases-heard] [data-phrase="close"]');
    await say(a.page, 'hello');
    await a.page.waitForSelector('[data-phrases-heard] [data-phrase="hello"]');
    expect(await a.page.$('[data-phrase="close"]')).toBeNull();
    expect(await heard(a.page)).toEqual([`${nameA}: Good luck`, `${nameA}: Hi!`]);
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });

  it('sounds each dân dropped, your turn and the end, none before the page is touched, and remembers the toggle', { timeout: 120_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { speed: 'normal' });
    const watcher = await newPlayer(harness.browser, { speed: 'fast' });
    for (const { page } of [b, watcher]) await recordSounds(page);
    const link = await openRoom(harness.server.url, a, b);
    await watcher.page.goto(link);
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"]');
    await playOpener(a, b);

    // A's first move: B, who has clicked, hears every dân dropped, then that it is their turn; the spectator, who has not, hears nothing.
    await move(a.page, 2);
    await waitForPly(b.page, 1);
    await waitForPly(watcher.page, 1);
    // What the rules say the move does, one sound per dân dropped and per square taken, then B's turn.
    const first = play(newGame({ first: 0 }), { square: 2, dir: 1 });
    if (!first.ok) throw new Error(first.code);
    const expected = first.events.flatMap((event) =>
      event.type === 'drop' ? ['drop'] : event.type === 'capture' ? [event.quan ? 'quan' : 'capture'] : [],
    );
    expect(expected.filter((kind) => kind === 'drop').length).toBeGreaterThanOrEqual(5);
    expect(await sounds(b.page)).toEqual([...expected, 'turn']);
    expect(await sounds(watcher.page)).toEqual([]);

    // Once touched, the spectator hears the next sowing too.
    await watcher.page.click('[data-room] .info');
    await move(b.page);
    await waitForPly(watcher.page, 2);
    await waitForPly(b.page, 2);
    expect((await sounds(watcher.page)).filter((kind) => kind === 'drop').length).toBeGreaterThan(0);
    expect(await sounds(watcher.page)).not.toContain('turn');

    // Turned off in the settings, remembered after a reload: nothing is heard.
    await b.page.click('[data-board-settings] summary');
    await b.page.click('[data-sound-toggle]');
    expect(await b.page.evaluate(() => localStorage.getItem('oanquan.sound'))).toBe('off');
    await b.page.reload();
    await b.page.waitForSelector('[data-board][data-ply="2"]');
    await b.page.click('[data-board-settings] summary');
    expect(await b.page.isChecked('[data-sound-toggle]')).toBe(false);
    await move(a.page);
    await waitForPly(b.page, 3);
    await waitForPly(watcher.page, 3);
    expect(await sounds(b.page)).toEqual([]);

    // On again: the end of the game sounds for the player and the spectator.
    await b.page.click('[data-sound-toggle]');
    expect(await b.page.evaluate(() => localStorage.getItem('oanquan.sound'))).toBe('on');
    await a.page.click('[data-action="resign"]');
    await a.page.click('[data-action="confirm"]');
    await b.page.waitForSelector('[data-result]');
    await watcher.page.waitForSelector('[data-result]');
    await b.page.waitForFunction(() => (window as unknown as { played: string[] }).played.includes('end'));
    await watcher.page.waitForFunction(() => (window as unknown as { played: string[] }).played.includes('end'));
    expect(await sounds(b.page)).toEqual(['end']);
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });
});
