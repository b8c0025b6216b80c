// A crushing loss is judged by the points thrown away, not only by the
// chance to win, which is near zero after a few moves. The game: the
// engine's level 8 moving first against random moves (the analysis
// calibration's `random` pairing, packages/engine/bench), lost 8–62. Judged
// by the win chance alone, the loser made one blunder, on their first move,
// and every later point thrown away went unmarked.

import type { AnalysisResponse } from '@oanquan/protocol';
import type { Move } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyMoments, percentOf } from '../src/lib/replay/analysis-view.js';
import { horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, type FinishedGame } from './support/live-game.js';

const m = (square: number, dir: 1 | -1): Move => ({ square, dir }) as Move;
const SCRIPT: Move[] = [
  m(1, -1), m(10, -1), m(3, -1), m(11, -1), m(3, 1), m(9, -1), m(2, -1), m(10, 1), m(3, 1), m(9, 1),
  m(2, 1), m(7, -1), m(1, 1), m(9, -1), m(2, 1), m(11, 1), m(4, -1), m(8, 1), m(3, -1),
];
const LOSER = 1;

describe('the analysis of a crushing loss', () => {
  let harness: Harness;
  let game: FinishedGame;
  beforeAll(async () => {
    harness = await startHarness();
    game = await playFinishedGame(harness.server.url, 11, null, SCRIPT);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a 320 px phone: lists the loser’s mistakes among the key moments, with the points each gave away, in both languages', { timeout: 240_000 }, async () => {
    expect(game.moves).toEqual(SCRIPT);
    expect(game.final.position.result!.score).toEqual([62, 8]);
    const phone = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, speed: 'fast' });
    const { page } = phone;
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=0`);
    await page.tap('[data-analyse]');
    await page.waitForSelector('[data-analysis="done"]', { timeout: 180_000 });
    const analysis = (await (await fetch(`${harness.server.url}/api/matches/${game.matchId}/analysis`)).json()) as AnalysisResponse;
    const plies = analysis.plies!;

    // Several of the loser's moves are mistakes or blunders, and some of them cost little of a chance already lost.
    const found = plies.filter((p) => p.seat === LOSER && (p.label === 'mistake' || p.label === 'blunder'));
    expect(found.length).toBeGreaterThanOrEqual(3);
    const byPoints = found.filter((p) => p.chanceLost < 0.2);
    expect(byPoints.length).toBeGreaterThanOrEqual(1);
    expect(analysis.accuracy![LOSER]!).toBeLessThan(65);

    // The page lists them as key moments, each with the points and the chance it lost.
    const moments = await page.$$eval('[data-key-moment]', (shown) => shown.map((m) => Number(m.getAttribute('data-key-moment'))));
    expect(moments).toEqual(keyMoments(plies).map((p) => p.ply));
    expect(moments).toContain(byPoints[0]!.ply);
    expect(await page.locator('[data-key-moments]').textContent()).not.toContain('No mistake or blunder');
    const moment = byPoints[0]!;
    expect(await page.textContent(`[data-key-moment="${moment.ply}"]`)).toContain(`(−${moment.pointsLost.toFixed(1)} points, −${percentOf(moment.chanceLost)} %)`);
    const names = (await page.textContent('[data-accuracy]'))!;
    expect(names).toContain(`${Math.round(analysis.accuracy![LOSER]!)} %`);

    // Tapping it judges the move in words.
    await page.tap(`[data-key-moment="${moment.ply}"]`);
    const detail = page.locator(`[data-move-detail="${moment.ply}"]`);
    await detail.waitFor();
    expect(await detail.locator('[data-verdict]').textContent()).toContain(moment.label);
    await page.tap('[data-how-to-read] summary');
    expect(await page.textContent('[data-how-to-read] p')).toContain('or 10 points (a quan piece) or more');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await page.tap('[data-lang="vi"]');
    await page.waitForSelector('[data-key-moments] h3:text-is("Những nước quyết định")');
    expect(await page.textContent(`[data-key-moment="${moment.ply}"]`)).toContain(`(−${moment.pointsLost.toFixed(1)} điểm, −${percentOf(moment.chanceLost)} %)`);
    expect(await page.textContent('[data-how-to-read] p')).toContain('hoặc từ 10 điểm (một quan) trở lên');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
