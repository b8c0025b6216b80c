import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, newPlayer, screenshot, startHarness, type Harness } from './support/harness.js';

describe('playing the computer in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ BOT_THINK_MS: '20', BOT_MOVE_DELAY_MS: '0', ANALYSIS_DEPTH: '4' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a 320 px phone: plays a short game against level 1 to the end, then opens its analysis', async () => {
    const me = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 } });
    const { page } = me;
    await page.goto(harness.server.url);
    await page.waitForSelector('[data-me] [data-my-name]');
    // The home page offers the computer at once, and the room form as an opponent.
    await page.waitForSelector('[data-play-computer] [data-start-computer]');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await page.click('[data-create-room] [data-opponent="computer"]');
    await page.selectOption('[data-form-bot-level]', '1');
    await page.click('[data-create-room] [data-preset="custom"]');
    await page.fill('[data-create-room] [data-ply-limit]', '16');
    await page.click('[data-create]');
    await page.waitForURL(/\/r\/[A-Za-z0-9]+$/);
    const code = page.url().split('/r/')[1]!;

    // The computer's name is in the reader's language.
    await page.waitForSelector('[data-opener]');
    expect(await page.textContent('body')).toContain('Computer (level 1)');

    // Rock until the opener is decided (a tie replays).
    for (let round = 0; (await page.locator('[data-board]').count()) === 0; round++) {
      expect(round).toBeLessThan(30);
      const hand = page.locator('[data-hand="rock"]:not([disabled])');
      if (await hand.count()) await hand.click();
      await page.waitForTimeout(150);
    }

    // Play any legal move whenever it is our turn, until the result shows.
    for (let turns = 0; (await page.locator('[data-result]').count()) === 0; turns++) {
      expect(turns).toBeLessThan(400);
      const square = page.locator('[data-board]:not([data-animating]) [data-square][data-legal]').first();
      if (await square.count()) {
        await square.click();
        await page.locator('[data-board] [data-dir]').first().click();
      }
      await page.waitForTimeout(100);
    }
    expect(['ply-limit', 'quan-gone', 'no-refill']).toContain(await page.getAttribute('[data-result]', 'data-reason'));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    const room = (await (await fetch(`${harness.server.url}/api/rooms/${code}`)).json()) as { matchId: string };
    const record = (await (await fetch(`${harness.server.url}/api/matches/${room.matchId}`)).json()) as { moves: unknown[]; players: Array<{ id: string; botLevel?: number | null }> };
    const plies = record.moves.length;
    expect(plies).toBeLessThanOrEqual(16);
    expect(record.players.some((player) => player.botLevel === 1)).toBe(true);
    await page.goto(`${harness.server.url}/m/${room.matchId}`);
    await page.waitForSelector('[data-replay] [data-analyse]');
    await page.click('[data-analyse]');
    await page.waitForSelector('[data-analysis="done"]', { timeout: 60_000 });

    // Every move has the engine's label; the graph jumps to a move; the best move is drawn at the position shown.
    const labels = await page.$$eval('[data-ply][data-label]', (items) => items.map((item) => item.getAttribute('data-label')));
    expect(labels.length).toBe(plies);
    for (const label of labels) expect(['best', 'good', 'inaccuracy', 'mistake', 'blunder']).toContain(label);
    const graph = page.locator('[data-eval-graph]');
    const box = (await graph.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // The middle of the graph is the middle of the game, give or take the half ply the click falls between.
    await page.waitForFunction((middle) => Math.abs(Number(document.querySelector('[data-replay]')?.getAttribute('data-ply')) - middle) <= 1, plies / 2);
    await page.waitForSelector('[data-board] [data-best-dir]');
    expect(await page.getAttribute('[data-best-move]', 'data-best-move')).toMatch(/^[1-5][<>]$/);
    expect(await page.textContent('[data-accuracy]')).toMatch(/Accuracy: .+ \d+ % · .+ \d+ %/);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'computer-analysis-320');

    // And in Vietnamese, wherever the computer is named: the replay, its room, its own profile.
    await page.click('[data-lang="vi"]');
    expect(await page.textContent('[data-analysis]')).toContain('Phân tích của máy');
    expect(await page.textContent('body')).toContain('Máy (cấp 1)');
    expect(await page.textContent('body')).not.toContain('Computer (level');
    await page.goto(`${harness.server.url}/r/${code}`);
    await page.waitForSelector('[data-result]');
    expect(await page.textContent('body')).toContain('Máy (cấp 1)');
    expect(await page.textContent('body')).not.toContain('Computer (level');
    const computer = record.players.find((player) => player.botLevel === 1)!;
    await page.goto(`${harness.server.url}/p/${computer.id}`);
    expect(await page.textContent('[data-profile-name]')).toBe('Máy (cấp 1)');
    expect(await page.title()).toContain('Máy (cấp 1)');
    expect(await page.textContent('body')).not.toContain('Computer (level');
    expect(me.errors).toEqual([]);
    await me.context.close();
  }, 240_000);
});
