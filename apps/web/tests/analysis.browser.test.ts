import type { AnalysisResponse, PlyAnalysis } from '@oanquan/protocol';
import { newGame, play } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveName } from '../src/lib/match/move-name.js';
import { keyMoments, percentOf } from '../src/lib/replay/analysis-view.js';
import { boardCounts, docsScreenshot, horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, type FinishedGame } from './support/live-game.js';

const FLAWS = ['inaccuracy', 'mistake', 'blunder'];

/** Where an element lies on the whole page, for a picture of it without the header that stays on top of the window. */
function pageBox(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.$eval(selector, (element) => {
    // Sticky, the header is drawn where the window is scrolled to: at the top it covers only the top of the page.
    window.scrollTo(0, 0);
    const box = element.getBoundingClientRect();
    return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
  });
}

describe('the analysis explains itself', () => {
  let harness: Harness;
  let game: FinishedGame;
  let plies: PlyAnalysis[];
  beforeAll(async () => {
    harness = await startHarness();
    // Seed 43: 18 plies of random moves, with captures and refills, to the end of the game.
    game = await playFinishedGame(harness.server.url, 43);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a 320 px touch screen: a labelled graph, each move judged in words, the best move played on the board, the key moments', { timeout: 180_000 }, async () => {
    const phone = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, speed: 'fast' });
    const { page } = phone;
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=0`);
    await page.tap('[data-analyse]');
    await page.waitForSelector('[data-analysis="done"]', { timeout: 90_000 });
    const analysis = (await (await fetch(`${harness.server.url}/api/matches/${game.matchId}/analysis`)).json()) as AnalysisResponse;
    plies = analysis.plies!;

    // The graph says what it draws: both axes, and a legend naming the line and each mark.
    const first = (await page.textContent('[data-graph-axis="y"]'))!;
    expect(first).toMatch(/ wins$/);
    expect(await page.textContent('[data-graph-axis="x"]')).toBe('Move');
    const legend = (await page.textContent('[data-graph-legend]'))!;
    expect(legend).toContain(`${first.replace(/ wins$/, '')}'s chance to win`);
    for (const word of FLAWS) expect(legend).toContain(word);
    expect(await page.isVisible('[data-graph-legend]')).toBe(true);
    // A mark on the graph for every move judged an inaccuracy or worse, inside the graph.
    const flawed = plies.filter((p) => FLAWS.includes(p.label));
    expect(flawed.length).toBeGreaterThan(0);
    expect(flawed.length).toBeLessThan(plies.length);
    const graph = (await page.locator('[data-eval-graph]').boundingBox())!;
    const marks = await page.$$eval('[data-graph-mark]', (found) =>
      found.map((mark) => {
        const box = mark.getBoundingClientRect();
        return { ply: Number(mark.getAttribute('data-graph-mark')), x: box.x + box.width / 2, y: box.y + box.height / 2 };
      }),
    );
    expect(marks.map((m) => m.ply)).toEqual(flawed.map((p) => p.ply));
    for (const mark of marks) {
      expect(mark.x).toBeGreaterThanOrEqual(graph.x - 1);
      expect(mark.x).toBeLessThanOrEqual(graph.x + graph.width + 1);
      expect(mark.y).toBeGreaterThanOrEqual(graph.y - 1);
      expect(mark.y).toBeLessThanOrEqual(graph.y + graph.height + 1);
    }

    // A tap on the worst move: its label in words, what it lost, and the best move instead with its gain.
    const worst = [...plies].sort((x, y) => y.chanceLost - x.chanceLost)[0]!;
    expect(FLAWS).toContain(worst.label);
    await page.tap(`.moves button[data-ply="${worst.ply}"]`);
    const detail = page.locator(`[data-move-detail="${worst.ply}"]`);
    expect(await detail.locator('[data-verdict]').textContent()).toContain(worst.label);
    expect(await detail.locator('[data-lost]').textContent()).toBe(`Lost ${percentOf(worst.chanceLost)} % of the chance to win (${worst.pointsLost.toFixed(1)} points).`);
    const best = moveName({ seat: worst.seat, ...worst.best });
    expect(await detail.locator('[data-best-instead]').textContent()).toMatch(new RegExp(`^Best: .+ ${best}, ${worst.pointsLost.toFixed(1)} points better\\.$`));
    // The move list says the label in words too, not only its mark.
    expect(await page.textContent(`.moves [data-ply="${worst.ply}"] [data-judgement]`)).toContain(worst.label);

    // One tap plays the best move on the board, from the position before the move.
    let state = newGame({ rules: game.rules, first: 0 });
    for (const move of game.moves.slice(0, worst.ply - 1)) {
      const next = play(state, move);
      if (!next.ok) throw new Error(next.code);
      state = next.state;
    }
    const instead = play(state, worst.best);
    if (!instead.ok) throw new Error(instead.code);
    await page.tap(`[data-play-best="${worst.ply}"]`);
    await page.waitForSelector(`[data-variation="${worst.ply}"]`);
    await expect.poll(() => boardCounts(page), { timeout: 30_000 }).toEqual(instead.state.position.squares);
    await page.tap('[data-action="back-to-game"]');
    await page.waitForSelector('[data-variation]', { state: 'detached' });

    // The key moments: the mistakes and blunders, each a tap away.
    const moments = await page.$$eval('[data-key-moment]', (found) => found.map((m) => Number(m.getAttribute('data-key-moment'))));
    expect(moments).toEqual(keyMoments(plies).map((p) => p.ply));
    expect(moments.length).toBeGreaterThan(0);
    await page.tap(`[data-key-moment="${moments[0]}"]`);
    await page.waitForSelector(`[data-replay][data-ply="${moments[0]}"] [data-move-detail="${moments[0]}"]`);

    // How to read it, in both languages.
    await page.tap('[data-how-to-read] summary');
    expect(await page.isVisible('[data-how-to-read] p')).toBe(true);
    expect(await page.textContent('[data-how-to-read] p')).toContain('a blunder 30 % or more');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.tap(`[data-key-moment="${moments.at(-1)}"]`);
    await docsScreenshot(page, 'analysis-320', { fullPage: true, clip: await pageBox(page, '[data-analysis]') });

    await page.tap('[data-lang="vi"]');
    await page.waitForSelector('[data-how-to-read] summary:text-is("Cách đọc phân tích")');
    expect(await page.textContent('[data-graph-axis="x"]')).toBe('Nước');
    expect(await page.textContent('[data-graph-axis="y"]')).toMatch(/ thắng$/);
    expect(await page.textContent('[data-how-to-read] p')).toContain('sai nghiêm trọng từ 30 %');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('at 1280 px: the analysis of the finished game beside the board and the moves', async () => {
    const desk = await newPlayer(harness.browser);
    const { page } = desk;
    const worst = [...plies].sort((x, y) => y.chanceLost - x.chanceLost)[0]!;
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=${worst.ply}`);
    await page.waitForSelector(`[data-analysis="done"] [data-move-detail="${worst.ply}"]`);
    expect(await page.isVisible('[data-eval-figure]')).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await docsScreenshot(page, 'analysis-1280', { fullPage: true, clip: await pageBox(page, '.layout') });
    expect(desk.errors).toEqual([]);
    await desk.context.close();
  });
});
