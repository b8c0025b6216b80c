import { newGame, play, type Move, type State } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardCounts, horizontalOverflow, keepAccount, newPlayer, screenshot, startHarness, type Harness } from './support/harness.js';
import { openRoom, pairInQueue, playOpener, waitForPly } from './support/room-flow.js';

async function entry(page: Page, ply: number): Promise<{ mark: string; say: string; notation: string | null }> {
  const item = page.locator(`.moves [data-ply="${ply}"]`);
  return {
    mark: (await item.locator('.mark').textContent())!.trim(),
    say: (await item.locator('.say').textContent())!.trim(),
    notation: await item.getAttribute('data-notation'),
  };
}

async function playMove(page: Page, move: Move): Promise<void> {
  await page.click(`[data-board] [data-square="${move.square}"][data-legal]`);
  await page.click(`[data-board] [data-dir="${move.dir}"]`);
}

function next(state: State, move: Move): State {
  const result = play(state, move);
  if (!result.ok) throw new Error(result.code);
  return result.state;
}

describe('the game log and the board explain themselves', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('previews a chosen move, names every move alike on every screen, and looks back without losing the game', { timeout: 120_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    const link = await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    await a.page.waitForSelector('[data-room][data-rated="false"]');
    const watcher = await newPlayer(harness.browser, { viewport: { width: 390, height: 844 }, isMobile: true });
    await watcher.page.goto(link);
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-board]');

    // A chooses square 1: each arrow tells what it takes (R9 E1 to the left: a quan and 1 dân, 11 points).
    await a.page.click('[data-board] [data-square="1"][data-legal]');
    expect(await a.page.textContent('[data-dir="-1"] [data-gain]')).toBe('+11');
    expect(await a.page.getAttribute('[data-dir="-1"]', 'aria-label')).toBe('Sow toward your left (clockwise): takes a quan and 1 dân');
    expect(await a.page.$('[data-preview]')).toBeNull();
    await a.page.hover('[data-dir="-1"]');
    await a.page.waitForSelector('[data-board] [data-square="2"][data-preview="end"]');
    await screenshot(a.page, 'preview-1280x800');
    expect(await a.page.$$eval('[data-board] [data-preview="capture"]', (found) => found.map((s) => s.getAttribute('data-square')))).toEqual(['0']);
    await a.page.click('[data-dir="-1"]');
    let state = next(newGame({ first: 0 }), { square: 1, dir: -1 });
    for (const { page } of [a, b, watcher]) await waitForPly(page, 1);

    // One move, three screens, one name: the mover's square 1 sown clockwise, whichever way up the board is drawn.
    expect(await entry(a.page, 1)).toEqual({ mark: '1↻', notation: '1<', say: expect.stringMatching(/ sowed their square 1 \(5 dân\) clockwise: captured a quan and 1 dân\.$/) });
    expect(await entry(watcher.page, 1)).toMatchObject({ mark: '1↻', notation: '1<' });
    expect(await entry(b.page, 1)).toEqual({ mark: '1↻', notation: '1<', say: expect.stringMatching(/ rải ô 1 của mình \(5 dân\) thuận chiều kim đồng hồ: ăn quan và 1 dân\.$/) });

    // B plays their square 2 toward their left (ring index 8, R7 "2<"): clockwise on A's screen as on B's.
    await playMove(b.page, { square: 8, dir: -1 });
    state = next(state, { square: 8, dir: -1 });
    for (const { page } of [a, b, watcher]) await waitForPly(page, 2);
    expect(await entry(a.page, 2)).toMatchObject({ mark: '2↻', notation: '2<' });
    expect(await entry(b.page, 2)).toMatchObject({ mark: '2↻', notation: '2<' });
    const afterTwo = state.position.squares;

    // B looks back at move 1: the board shows that position, read-only.
    const afterOne = next(newGame({ first: 0 }), { square: 1, dir: -1 }).position.squares;
    await b.page.click('.moves button[data-ply="1"]');
    await b.page.waitForSelector('[data-look-back="1"]');
    expect(await boardCounts(b.page)).toEqual(afterOne);
    expect(await b.page.getAttribute('.moves [data-ply="1"]', 'aria-current')).toBe('true');
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);

    // A moves meanwhile: B keeps looking back, and is told a move came.
    const third: Move = { square: 2, dir: 1 };
    await playMove(a.page, third);
    state = next(state, third);
    await b.page.waitForSelector('[data-look-back="1"] [data-fresh="1"]');
    await b.page.waitForSelector('.moves [data-ply="3"]');
    expect(await boardCounts(b.page)).toEqual(afterOne);
    expect(await b.page.$$('[data-board] [data-legal]')).toHaveLength(0);
    await screenshot(b.page, 'look-back-320x640-vi');
    expect(afterTwo).not.toEqual(state.position.squares);

    // One click back to the game: the live position, B's turn, and B plays on.
    await b.page.click('[data-action="live"]');
    await b.page.waitForSelector('[data-look-back]', { state: 'detached' });
    await waitForPly(b.page, 3);
    expect(await boardCounts(b.page)).toEqual(state.position.squares);
    await b.page.waitForSelector('[data-board] [data-legal]');

    // Without the preview, the arrows say nothing ahead.
    await b.page.click('[data-board-settings] summary');
    await b.page.selectOption('[data-preview-setting]', 'never');
    await b.page.click('[data-board] [data-legal]');
    await b.page.waitForSelector('[data-dir="1"]');
    expect(await b.page.$('[data-gain]')).toBeNull();
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });

  it('leaves the preview off by default in a rated game, and on when asked for', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    // Rated games come only from the public queue, between accounts.
    for (const [i, { page }] of [a, b].entries()) {
      await page.goto(harness.server.url);
      await page.waitForSelector('[data-me] [data-my-name]');
      await keepAccount(page, `game_log_${i}`);
    }
    await pairInQueue([a, b], '3+2');
    // Whatever seats the queue gave them, A's rock beats B's scissors: A moves first.
    await a.page.click('[data-hand="rock"]');
    await b.page.click('[data-hand="scissors"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-board][data-ply="0"]');

    await a.page.waitForSelector('[data-room][data-rated="true"]');
    // R9 E1 from the mover's side: their first square sown to their left takes a quan and a dân.
    const first = (await a.page.getAttribute('[data-room]', 'data-seat')) === '1' ? 7 : 1;
    await a.page.click(`[data-board] [data-square="${first}"][data-legal]`);
    await a.page.waitForSelector('[data-dir="-1"]');
    expect(await a.page.$('[data-gain]')).toBeNull();
    await a.page.click('[data-board-settings] summary');
    await a.page.selectOption('[data-preview-setting]', 'always');
    await a.page.waitForSelector('[data-dir="-1"] [data-gain="11"]');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
