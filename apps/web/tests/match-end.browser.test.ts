import { scoreBreakdown } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { playFinishedGame } from './support/live-game.js';
import { openRoom, pairInQueue, playOpener, waitForPly } from './support/room-flow.js';

/** A browser that already holds this guest's token. */
async function as(harness: Harness, token: string, options: Parameters<typeof newPlayer>[1] = {}): Promise<Player> {
  const player = await newPlayer(harness.browser, options);
  await player.context.addInitScript((t) => localStorage.setItem('oanquan.token', t), token);
  return player;
}

const cells = (page: Page, row: string) => page.$$eval(`[data-breakdown-row="${row}"] td`, (tds) => tds.map((td) => td.textContent?.trim()));

describe('the end of a match in Chromium: the score, the ratings, the words', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ ABANDON_GRACE_MS: '1500', QUEUE_TICK_MS: '200' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('sweeps the rows to their owners step by step, then shows a breakdown that adds up to the score', { timeout: 120_000 }, async () => {
    const game = await playFinishedGame(harness.server.url, 43);
    const position = game.final.position;
    const expected = scoreBreakdown(position, game.rules);
    const score = position.result!.score;

    const a = await as(harness, game.players[0].token, { speed: 'normal' });
    await a.page.goto(`${harness.server.url}/r/${game.roomCode}`);
    await a.page.waitForSelector('[data-breakdown]');
    const rowsLeft = position.squares.some((n) => n > 0);
    if (rowsLeft) {
      // The sweep is animated: not finished at first, every square empty at the end.
      expect(await a.page.$('[data-breakdown][data-sweep-done]')).toBeNull();
    }
    await a.page.waitForSelector('[data-breakdown][data-sweep-done]', { timeout: 20_000 });
    // Each square that was left keeps its count, marked with where it went.
    const swept = await a.page.$$eval('[data-sweep-square]', (squares) =>
      squares.map((s) => [Number(s.getAttribute('data-sweep-square')), s.textContent?.trim(), s.getAttribute('data-swept-to')] as const),
    );
    for (const [square, text, to] of swept) {
      const count = position.squares[square]!;
      expect([square, text]).toEqual([square, count > 0 ? String(count) : '']);
      expect([square, to]).toEqual([square, count === 0 ? null : square % 6 === 0 ? 'split' : square < 6 ? 'bottom' : 'top']);
    }
    expect(await a.page.textContent('[data-pile="0"] b')).toBe(`+${expected.players[0].swept + expected.players[0].mandarinShare}`);

    expect(await cells(a.page, 'captured')).toEqual(expected.players.map((p) => String(p.capturedDan)));
    expect(await cells(a.page, 'quan')).toEqual(expected.players.map((p) => String(p.quanPoints)));
    expect(await cells(a.page, 'swept')).toEqual(expected.players.map((p) => String(p.swept)));
    expect(await cells(a.page, 'mandarin')).toEqual(expected.players.map((p) => String(p.mandarinShare)));
    expect(await cells(a.page, 'total')).toEqual(score.map((s) => String(s).replace('-', '\u2212')));
    // The panels show the score the result gives, not only what was captured.
    expect(await a.page.getAttribute('[data-player="0"] [data-final-score]', 'data-final-score')).toBe(String(score[0]));
    expect(await a.page.getAttribute('[data-player="1"] [data-final-score]', 'data-final-score')).toBe(String(score[1]));
    await docsScreenshot(a.page.locator('[data-result]'), 'score-breakdown-1280');

    // A spectator on a 320 px phone, in Vietnamese: the same totals, nothing wider than the screen.
    const phone = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    await phone.page.goto(`${harness.server.url}/r/${game.roomCode}`);
    await phone.page.waitForSelector('[data-breakdown][data-sweep-done]');
    expect(await phone.page.textContent('[data-breakdown] caption')).toBe('Cách tính điểm');
    expect(await cells(phone.page, 'total')).toEqual(score.map((s) => String(s).replace('-', '\u2212')));
    expect(await horizontalOverflow(phone.page)).toBeLessThanOrEqual(0);
    await docsScreenshot(phone.page.locator('[data-result]'), 'score-breakdown-320');
    expect([...a.errors, ...phone.errors]).toEqual([]);
    await Promise.all([a.context.close(), phone.context.close()]);
  });

  it('tells the one who left, the one who stayed and a spectator each their own sentence', { timeout: 120_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { locale: 'vi-VN' });
    const link = await openRoom(harness.server.url, a, b);
    const watcher = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true });
    await watcher.page.goto(link);
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"]');
    await playOpener(a, b);
    await a.page.click('[data-board] [data-square="2"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    await waitForPly(b.page, 1);
    const nameA = (await a.page.textContent('[data-player="0"] .name a'))!.trim();
    const nameB = (await a.page.textContent('[data-player="1"] .name a'))!.trim();

    await b.page.click('a.brand');
    await b.page.waitForSelector('[data-play]');
    await a.page.waitForSelector('[data-banner="opponent-gone"][data-seat="1"]');
    await a.page.click('[data-action="claim"]');
    await a.page.waitForSelector('[data-result="won"][data-reason="abandon"]');
    await b.page.goto(link);
    await b.page.waitForSelector('[data-result="lost"][data-reason="abandon"]');
    await watcher.page.waitForSelector('[data-result][data-reason="abandon"]');

    expect(await a.page.textContent('[data-end-sentence]')).toBe(`Your opponent, ${nameB}, left; you claimed the win.`);
    expect(await b.page.textContent('[data-end-sentence]')).toBe('Bạn đã rời ván, và đối thủ đã nhận thắng.');
    expect(await watcher.page.textContent('[data-end-sentence]')).toBe(`${nameB} left; ${nameA} claimed the win.`);
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });

  it('shows ratings in the room and the change when a rated game ends; New opponent finds someone else in the same pool', { timeout: 240_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true });
    // Rated games are for accounts.
    for (const [i, { page }] of [a, b].entries()) {
      await page.goto(harness.server.url);
      await page.waitForSelector('[data-me] [data-my-name]');
      await keepAccount(page, `rated_end_${i}`);
    }
    await pairInQueue([a, b], '3+2');
    for (const { page } of [a, b]) await page.waitForSelector('[data-room][data-status="opener"] [data-opener]');
    const seatA = Number(await a.page.getAttribute('[data-room]', 'data-seat'));
    const [first, second] = seatA === 0 ? [a, b] : [b, a];
    await first.page.click('[data-hand="rock"]');
    await second.page.click('[data-hand="scissors"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-board][data-ply="0"]');
    // Two moves each, so that the game counts however strict the rating rules are.
    for (let ply = 0; ply < 4; ply++) {
      const mover = ply % 2 === 0 ? first : second;
      await mover.page.click('[data-board] [data-legal]');
      await mover.page.click('[data-board] [data-dir="1"]');
      for (const { page } of [a, b]) await waitForPly(page, ply + 1);
    }
    // New players: 1500, provisional.
    await a.page.waitForSelector('[data-player] [data-rating="1500?"]');
    expect(await a.page.$$eval('[data-player] [data-rating]', (els) => els.map((el) => el.getAttribute('data-rating')))).toEqual(['1500?', '1500?']);

    await b.page.click('[data-action="resign"]');
    await b.page.click('[data-action="confirm"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-result][data-reason="resign"] [data-rating-change]');
    const seatB = 1 - seatA;
    const upA = await a.page.getAttribute(`[data-rating-change="${seatA}"]`, 'data-delta');
    const downB = await b.page.getAttribute(`[data-rating-change="${seatB}"]`, 'data-delta');
    expect(upA).toMatch(/^\+\d+$/);
    expect(downB).toMatch(/^\u2212\d+$/);
    expect(await b.page.textContent(`[data-rating-change="${seatB}"]`)).toContain(`(${downB})`);
    expect(await b.page.textContent('[data-end-sentence]')).toBe('You resigned.');
    // The panel's rating is the new one.
    await a.page.waitForSelector(`[data-player="${seatA}"] [data-rating="${1500 + Number(upA!.slice(1))}?"]`);

    // A rated queue game is a pair: B resigns the return game too, which completes the pair.
    await a.page.click('[data-action="return-game"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-room][data-status="playing"] [data-pairing-game="2"]', { timeout: 20_000 });
    await b.page.click('[data-action="resign"]');
    await b.page.click('[data-action="confirm"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-result][data-reason="resign"] [data-rating-span="pair"] [data-rating-change]');
    // The end of game 2 shows the pair as the one result it is rated as: 2–0, and each rating from before game 1.
    const pairScore = seatA === 0 ? '2-0' : '0-2';
    for (const { page } of [a, b]) expect(await page.getAttribute('[data-pair-score]', 'data-pair-score')).toBe(pairScore);
    expect(await a.page.textContent('[data-pair-score]')).toBe('Rated pair: rated_end_0 2 – 0 rated_end_1');
    expect(await b.page.textContent('[data-pair-score]')).toBe('Rated pair: rated_end_1 0 – 2 rated_end_0');
    const upPair = await a.page.getAttribute(`[data-rating-change="${seatA}"]`, 'data-delta');
    expect(Number(upPair!.slice(1))).toBeGreaterThan(Number(upA!.slice(1)));
    const after = 1500 + Number(upPair!.slice(1));
    expect(await a.page.textContent(`[data-rating-change="${seatA}"]`)).toBe(`Rating over the pair: 1500 → ${after} (${upPair})`);
    const downPair = await b.page.getAttribute(`[data-rating-change="${seatB}"]`, 'data-delta');
    expect(await b.page.textContent(`[data-rating-change="${seatB}"]`)).toBe(`Rating over the pair: 1500 → ${1500 - Number(downPair!.slice(1))} (${downPair})`);
    expect(await b.page.textContent(`[data-rating-change="${seatA}"]`)).toBe(`rated_end_0 over the pair: 1500 → ${after} (${upPair})`);
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);
    await a.page.waitForSelector(`[data-player="${seatA}"] [data-rating="${after}?"]`);

    // New opponent: back into 3+2, where a third player is waiting.
    await a.page.click('[data-new-opponent-button]');
    await a.page.waitForSelector('[data-new-opponent="searching"], [data-new-opponent="matched"]');
    const c = await newPlayer(harness.browser);
    await c.page.goto(harness.server.url);
    await c.page.waitForSelector('[data-me] [data-my-name]');
    await keepAccount(c.page, 'rated_end_2');
    await c.page.click('[data-pool="3+2"]');
    await c.page.click('[data-play]:not([disabled])');
    const oldRoom = a.page.url();
    // A won the pair, so the gap to C (a new player) takes the queue a few seconds of widening to accept.
    const paired = { timeout: 90_000 };
    await Promise.all([a.page.waitForURL((url) => /\/r\/[A-Za-z0-9]+$/.test(url.pathname) && url.href !== oldRoom, paired), c.page.waitForURL(/\/r\/[A-Za-z0-9]+$/, paired)]);
    expect(a.page.url()).toBe(c.page.url());

    // Both are on the leaderboard already, provisional and marked.
    await b.page.goto(`${harness.server.url}/leaderboard`);
    await b.page.waitForSelector('[data-leaderboard-rating]');
    const marks = await b.page.$$eval('[data-leaderboard-rating]', (els) => els.map((el) => el.textContent?.trim()));
    expect(marks).toContain(`${after}?`);
    expect(marks.every((m) => m?.endsWith('?'))).toBe(true);
    expect([...a.errors, ...b.errors, ...c.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), c.context.close()]);
  });
});
