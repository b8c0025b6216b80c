import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axePath, seriousFindings } from './support/axe.js';
import { boardCounts, docsScreenshot, horizontalOverflow, newPlayer, seeded, startHarness, type Harness } from './support/harness.js';

const PHONE = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true } as const;

const stage = (page: Page, name: string) => page.waitForSelector(`[data-local][data-stage="${name}"]`);
const attr = async (page: Page, selector: string, name: string) => (await page.getAttribute(selector, name)) ?? '';

/** What the page shows, the hand buttons and the game's title ("Rock, paper, scissors") left out: where a hand chosen would show. */
const besideHands = (page: Page) =>
  page.$eval('[data-local]', (root) => {
    const copy = root.cloneNode(true) as HTMLElement;
    for (const left of copy.querySelectorAll('.hands, h2')) left.remove();
    return { text: copy.textContent ?? '', icons: copy.querySelectorAll('.hand-icon').length };
  });

/** The squares the board offers the mover. */
const legalSquares = (page: Page) => page.$$eval('[data-board] [data-legal]', (els) => els.map((el) => Number(el.getAttribute('data-square'))));

/** One move with taps, a square and a direction picked by `pick`; waits for the board's next ply. */
async function move(page: Page, pick: (n: number) => number): Promise<number> {
  const ply = Number(await attr(page, '[data-board]', 'data-ply'));
  const squares = await legalSquares(page);
  const square = squares[pick(squares.length)]!;
  await page.tap(`[data-board] [data-square="${square}"][data-legal]`);
  await page.tap(`[data-board] [data-dir="${pick(2) === 0 ? -1 : 1}"]`);
  await page.waitForSelector(`[data-board][data-ply="${ply + 1}"]`);
  return square;
}

/** Moves until the game has ended; the number of moves made. */
async function playToEnd(page: Page, pick: (n: number) => number): Promise<number> {
  let moves = 0;
  while ((await attr(page, '[data-local]', 'data-stage')) === 'playing') {
    await move(page, pick);
    moves += 1;
    if (moves > 1_000) throw new Error('the game did not end');
  }
  return moves;
}

/** One round of the opener: the first player's hand, the hand-over, the second's; `check` runs at the hand-over and before the second hand. */
async function round(page: Page, first: string, second: string, check: (at: 'pass' | 'choose-1') => Promise<void>): Promise<void> {
  await page.waitForSelector('[data-local-opener="choose-0"]');
  await page.tap(`[data-hand="${first}"]`);
  await page.waitForSelector('[data-local-opener="pass"]');
  await check('pass');
  await page.tap('[data-hand-over]');
  await page.waitForSelector('[data-local-opener="choose-1"]');
  await check('choose-1');
  await page.tap(`[data-hand="${second}"]`);
}

describe('two on one phone in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a 320 px phone: the opener in turns with the first hand hidden, a tie replayed, the board turned to each mover, a reload that goes on, the end and play again', { timeout: 180_000 }, async () => {
    // No animation is caught half-way by the accessibility checks.
    const { context, page, errors } = await newPlayer(harness.browser, { ...PHONE, reducedMotion: 'reduce' });
    await context.addInitScript({ path: axePath });
    await page.goto(harness.server.url);
    await page.tap('[data-local-link] a');
    await page.waitForURL(/\/local$/);
    await stage(page, 'setup');
    expect(await seriousFindings(page)).toEqual([]);
    await page.fill('[data-name="0"]', 'Lan');
    await page.fill('[data-name="1"]', 'Minh');
    expect(await page.isChecked('[data-turn-board]')).toBe(true);
    await page.tap('[data-local-start]');

    // Round 1: Lan's hand is hidden from Minh, at the hand-over and while Minh chooses.
    await page.waitForSelector('[data-local-opener="choose-0"]');
    expect(await page.textContent('[data-chooser="0"]')).toBe('Lan, choose your hand');
    await page.tap('[data-hand="rock"]');
    await page.waitForSelector('[data-local-opener="pass"]');
    expect(await page.textContent('[data-pass-to]')).toBe('Hand the phone to Minh');
    expect(await page.$$('[data-hand]')).toHaveLength(0);
    expect(await page.$$('[data-opener-round]')).toHaveLength(0);
    expect(await besideHands(page)).toEqual({ text: expect.not.stringMatching(/rock|paper|scissors/i), icons: 0 });
    // The hand-over takes the focus from the hand pressed, which is gone.
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-pass-to'))).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    await page.tap('[data-hand-over]');
    await page.waitForSelector('[data-local-opener="choose-1"]');
    expect(await page.textContent('[data-chooser="1"]')).toBe('Minh, choose your hand');
    expect(await page.$$('[data-opener-round]')).toHaveLength(0);
    expect(await besideHands(page)).toEqual({ text: expect.not.stringMatching(/rock|paper|scissors/i), icons: 0 });
    await page.tap('[data-hand="rock"]');

    // A tie: both hands shown, and round 2 starts again with Lan.
    await page.waitForSelector('[data-opener-round="1"][data-opener-winner="tie"]');
    await page.waitForSelector('[data-local-opener="choose-0"]');
    expect(await page.textContent('[data-opener-round="1"]')).toContain('Both chose Rock');
    await round(page, 'scissors', 'paper', async () => expect(await page.$$('[data-opener-round="2"]')).toHaveLength(0));

    // Scissors beat paper: Lan moves first, her row at the bottom.
    await stage(page, 'playing');
    await page.waitForSelector('[data-opener-round="2"][data-opener-winner="0"]');
    expect(await attr(page, '[data-local]', 'data-to-move')).toBe('0');
    expect(await attr(page, '[data-board]', 'data-bottom')).toBe('0');
    expect(await page.textContent('[data-turn]')).toBe('Lan to move');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousFindings(page)).toEqual([]);

    const pick = seeded(7);
    for (const mover of [0, 1, 0, 1]) {
      expect(await attr(page, '[data-board]', 'data-bottom')).toBe(String(mover));
      // The mover's own row is the bottom one: squares 1–5 for Lan, 7–11 for Minh.
      for (const square of await legalSquares(page)) expect(Math.floor(square / 6)).toBe(mover);
      await move(page, pick);
      await page.waitForSelector(`[data-local][data-to-move="${1 - mover}"] [data-board][data-bottom="${1 - mover}"]`);
    }
    expect(await page.$$eval('.moves [data-ply]', (rows) => rows.length)).toBe(4);

    // A reload goes on where the game was.
    const counts = await boardCounts(page);
    const log = await page.$$eval('.moves [data-notation]', (rows) => rows.map((r) => r.getAttribute('data-notation')));
    await page.reload();
    await stage(page, 'playing');
    expect(await boardCounts(page)).toEqual(counts);
    expect(await page.$$eval('.moves [data-notation]', (rows) => rows.map((r) => r.getAttribute('data-notation')))).toEqual(log);
    expect(await attr(page, '[data-local]', 'data-to-move')).toBe('0');
    expect(await page.textContent('[data-turn]')).toBe('Lan to move');

    const played = await playToEnd(page, pick);
    await stage(page, 'ended');
    await page.waitForSelector('[data-result][data-score]');
    await page.waitForSelector('[data-breakdown]');
    const [a, b] = (await attr(page, '[data-result]', 'data-score')).split('-').map(Number);
    const winner = await attr(page, '[data-result]', 'data-winner');
    expect(winner).toBe(a! > b! ? '0' : a! < b! ? '1' : 'none');
    expect(await page.$$eval('.moves [data-ply]', (rows) => rows.length)).toBe(4 + played);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    // The end shows seat 0's row at the bottom, as the score and its breakdown read seat 0 first.
    expect(await attr(page, '[data-board]', 'data-bottom')).toBe('0');
    expect(await seriousFindings(page)).toEqual([]);
    await docsScreenshot(page, 'pass-and-play-end-320', { fullPage: true });

    // The log shows an earlier position on the board, and Escape the last again.
    await page.tap('.moves [data-ply="1"]');
    await page.waitForSelector('[data-look-back="1"] ~ [data-board][data-ply="1"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector(`[data-board][data-ply="${4 + played}"]`);
    expect(await page.$$('[data-look-back]')).toHaveLength(0);

    // The ended game survives a reload too; "play again" starts afresh with the same names.
    await page.reload();
    await stage(page, 'ended');
    await page.tap('[data-play-again]');
    await stage(page, 'setup');
    expect(await page.inputValue('[data-name="1"]')).toBe('Minh');
    expect(await page.evaluate(() => localStorage.getItem('oanquan.local'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with the network off once the page is open: a fixed board and clocks, in Vietnamese, played to its end', { timeout: 180_000 }, async () => {
    const { context, page, errors } = await newPlayer(harness.browser, { ...PHONE, locale: 'vi-VN' });
    await page.goto(`${harness.server.url}/local`);
    await stage(page, 'setup');
    await context.setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.tap('[data-turn-board]');
    await page.selectOption('[data-clock-setting]', '10');
    await page.tap('[data-local-start]');
    await round(page, 'paper', 'scissors', async (at) => {
      if (at === 'pass') expect(await page.textContent('[data-pass-to]')).toBe('Đưa máy cho Người chơi 2');
      else expect(await page.textContent('[data-chooser="1"]')).toBe('Người chơi 2, hãy ra tay');
    });

    // Scissors beat paper: Người chơi 2 moves first, from the top row of a board that stays put.
    await stage(page, 'playing');
    expect(await attr(page, '[data-local]', 'data-to-move')).toBe('1');
    expect(await attr(page, '[data-board]', 'data-bottom')).toBe('0');
    // No clock runs before the first move.
    expect(await page.$$('[data-clock][data-running]')).toHaveLength(0);
    const pick = seeded(11);
    // The far-side mover plays by keyboard too: keys 1–5 count their own squares, the arrows as seen on screen.
    const [square] = await legalSquares(page);
    await page.keyboard.press(String(square! - 6));
    await page.waitForSelector(`[data-board] [data-square="${square}"][data-selected]`);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-local][data-to-move="0"] [data-board][data-ply="1"][data-bottom="0"]');
    expect(await attr(page, '.moves [data-ply="1"]', 'data-notation')).toBe(`${square! - 6}>`);
    for (const mover of [0, 1, 0]) {
      for (const square of await legalSquares(page)) expect(Math.floor(square / 6)).toBe(mover);
      await move(page, pick);
      await page.waitForSelector(`[data-local][data-to-move="${1 - mover}"] [data-board][data-bottom="0"]`);
      await page.waitForSelector(`[data-clock="${1 - mover}"][data-running]`);
    }

    await playToEnd(page, pick);
    await page.waitForSelector('[data-result][data-score]');
    expect(await page.textContent('[data-result] h2')).not.toBe('');
    expect(await page.$$('[data-clock][data-running]')).toHaveLength(0);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
