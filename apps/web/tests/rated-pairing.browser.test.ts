import type { Page } from 'playwright-core';
import type { PlayerProfile } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { playPly } from './support/room-flow.js';

const seatOf = async (page: Page) => Number(await page.getAttribute('[data-room]', 'data-seat'));

/** Four plies from the seat to move, then `resigner` gives up: a decided game, long enough to be rated. */
async function playAndResign(players: Player[], resigner: Player): Promise<void> {
  for (let ply = 0; ply < 4; ply++) await playPly(players, ply);
  await resigner.page.waitForSelector('[data-board][data-ply="4"]:not([data-animating])');
  await resigner.page.click('[data-action="resign"]');
  await resigner.page.click('[data-action="confirm"]');
}

describe('a rated pairing from the queue in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ QUEUE_TICK_MS: '200' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('plays two games with the first move swapped, each rated, and says so in both languages', { timeout: 240_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    for (const [i, { page }] of [a, b].entries()) {
      await page.goto(harness.server.url);
      await page.waitForSelector('[data-me] [data-my-name]');
      await keepAccount(page, `pairing_${i}`);
      await page.reload();
      await page.waitForSelector('[data-rated-choice] input:checked');
    }
    // The queue says how rated games are played and why, with the measured figure, in each reader's language.
    expect(await a.page.textContent('[data-rated-format]')).toContain('16 of 16 games as first mover, 100 %');
    expect(await b.page.textContent('[data-rated-format]')).toContain('người đi trước thắng 16 trên 16 ván');
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);

    for (const { page } of [a, b]) {
      await page.click('[data-pool="3+2"]');
      await page.click('[data-play]:not([disabled])');
    }
    await Promise.all([a.page.waitForURL(/\/r\/[A-Za-z0-9]+$/), b.page.waitForURL(/\/r\/[A-Za-z0-9]+$/)]);
    for (const { page } of [a, b]) await page.waitForSelector('[data-opener] >> visible=true');
    expect(await a.page.textContent('[data-pairing-game="1"]')).toContain('Rated pair, game 1 of 2');
    expect(await b.page.textContent('[data-pairing-game="1"]')).toContain('Cặp ván tính điểm, ván 1/2');

    // Game 1: A wins the toss and starts; B resigns after four plies.
    await a.page.click('[data-hand="rock"]');
    await b.page.click('[data-hand="scissors"]');
    const seatA = await seatOf(a.page);
    const seatB = 1 - seatA;
    const firstGame = await a.page.getAttribute('[data-room]', 'data-match');
    await playAndResign([a, b], b);
    for (const { page } of [a, b]) {
      await page.waitForSelector(`[data-rating-change="${seatA}"]`);
      // Game 2 has started; game 1's result stays in sight, and the way on is offered.
      await page.waitForSelector('[data-pairing-game="1"] [data-action="return-game"]');
    }
    expect(await a.page.textContent('[data-pairing-game="1"]')).toContain('game 2 has started');
    // Game 2 is already there: no rematch to offer, no new opponent to look for.
    expect(await a.page.locator('[data-action="rematch"], [data-new-opponent]').count()).toBe(0);
    const won1 = await a.page.getAttribute(`[data-rating-change="${seatA}"]`, 'data-delta');
    expect(won1).toMatch(/^\+\d+$/);

    // A goes on at once; B is taken there after a moment.
    await a.page.click('[data-action="return-game"]');
    await Promise.all([a, b].map(({ page }) => page.waitForSelector('[data-room][data-status="playing"] [data-pairing-game="2"]', { timeout: 20_000 })));
    const secondGame = await a.page.getAttribute('[data-room]', 'data-match');
    expect(secondGame).not.toBe(firstGame);
    expect(await b.page.getAttribute('[data-room]', 'data-match')).toBe(secondGame);
    // No opener: the seat that did not start game 1 is to move.
    expect(await a.page.getAttribute('[data-room]', 'data-to-move')).toBe(String(seatB));
    expect(await a.page.getAttribute('[data-pairing-game="2"]', 'data-first-game-winner')).toBe(String(seatA));
    expect(await a.page.textContent('[data-pairing-game="2"]')).toContain('Rated pair, game 2 of 2');
    expect(await b.page.textContent('[data-pairing-game="2"]')).toContain('Cặp ván tính điểm, ván 2/2');
    expect(await b.page.textContent('[data-first-move-countdown]')).toContain('người đi trước thua ván này');
    // Game 2 had no toss, so no one "did not choose in time": the room says the first move was swapped.
    expect(await a.page.textContent('[data-return-game-start]')).toBe('Return game: pairing_1 moves first (the first move swapped).');
    expect(await b.page.textContent('[data-return-game-start]')).toBe('Ván lượt về: pairing_1 đi trước (đổi lượt đi).');
    for (const { page } of [a, b]) expect(await page.locator('[data-opener-forfeit]').count()).toBe(0);
    // Game 2 rates the pair as one period: losing it would give back exactly what game 1 gave.
    expect(await a.page.getAttribute(`[data-stakes="${seatA}"]`, 'data-loss')).toBe(`\u2212${won1!.slice(1)}`);
    // The return game cannot be called off.
    for (const { page } of [a, b]) expect(await page.locator('[data-action="abort"]').count()).toBe(0);
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);

    // Game 2: B starts; A resigns after four plies. The end shows the pair as the one result it is rated as:
    // one win each from the same start leaves both where they began, though A lost game 2.
    await playAndResign([a, b], a);
    for (const { page } of [a, b]) await page.waitForSelector(`[data-rating-span="pair"] [data-rating-change="${seatB}"]`);
    for (const { page } of [a, b]) expect(await page.getAttribute('[data-pair-score]', 'data-pair-score')).toBe('1-1');
    expect(await a.page.textContent('[data-pair-score]')).toBe('Rated pair: pairing_0 1 – 1 pairing_1');
    expect(await b.page.textContent('[data-pair-score]')).toBe('Cặp ván tính điểm: pairing_1 1 – 1 pairing_0');
    expect(await a.page.textContent(`[data-rating-change="${seatA}"]`)).toBe('Rating over the pair: 1500 → 1500 (±0)');
    expect(await a.page.textContent(`[data-rating-change="${seatB}"]`)).toBe('pairing_1 over the pair: 1500 → 1500 (±0)');
    expect(await b.page.textContent(`[data-rating-change="${seatB}"]`)).toBe('Điểm xếp hạng qua cặp ván: 1500 → 1500 (±0)');
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);
    await b.page.locator('[data-pair-score]').scrollIntoViewIfNeeded();
    await docsScreenshot(b.page, 'pair-result-320');
    // Someone who only watches sees the pair too, the first seat first.
    const watcher = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
    await watcher.page.goto(a.page.url());
    await watcher.page.waitForSelector('[data-pair-score="1-1"]');
    const bySeat = seatA === 0 ? ['pairing_0', 'pairing_1'] : ['pairing_1', 'pairing_0'];
    expect(await watcher.page.textContent('[data-pair-score]')).toBe(`Rated pair: ${bySeat[0]} 1 – 1 ${bySeat[1]}`);
    expect(await watcher.page.textContent('[data-rating-change="0"]')).toBe(`${bySeat[0]} over the pair: 1500 → 1500 (±0)`);
    expect(await horizontalOverflow(watcher.page)).toBeLessThanOrEqual(0);
    expect(watcher.errors).toEqual([]);
    await watcher.context.close();
    // The pair is complete: no third game starts by itself.
    expect(await a.page.locator('[data-action="return-game"]').count()).toBe(0);
    for (const { page } of [a, b]) {
      const id = await page.evaluate(async () => ((await (await fetch('/api/me')).json()) as { player: { id: string } }).player.id);
      const profile = (await (await fetch(`${harness.server.url}/api/players/${id}`)).json()) as PlayerProfile;
      expect(profile.record).toEqual({ wins: 1, losses: 1, draws: 0 });
      // One win each from the same start: both are back where they began, whoever won the toss.
      expect(profile.rating.rating).toBeCloseTo(1500, 6);
      expect(profile.recent.map((m) => m.id).sort()).toEqual([firstGame, secondGame].sort());
    }

    // The rules page says it too.
    await a.page.goto(`${harness.server.url}/rules#rated`);
    expect(await a.page.textContent('#rated[data-rated-format]')).toContain('Rated games are played in pairs');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
