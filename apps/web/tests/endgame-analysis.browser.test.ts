// The analysis of a game that reaches an exact endgame: the move shown says
// what best play is proved to give, and a move that throws a proved win
// away says so, in English and in Vietnamese. The game is a self-play game
// of the engine up to its 20th move, where the first player can win (by at
// least 4), then a 21st move that leaves the win to the other player
// (packages/engine's endgame-analysis test checks the same position), then
// random moves.

import type { AnalysisResponse } from '@oanquan/protocol';
import type { Move } from '@oanquan/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, type FinishedGame } from './support/live-game.js';

const m = (square: number, dir: 1 | -1): Move => ({ square, dir }) as Move;
const SCRIPT: Move[] = [
  m(4, -1), m(9, 1), m(2, 1), m(11, 1), m(3, -1), m(8, 1), m(2, 1), m(10, -1), m(2, -1),
  m(7, -1), m(2, -1), m(9, -1), m(1, -1), m(10, -1), m(4, 1), m(7, 1), m(3, 1), m(8, 1),
  m(4, -1), m(10, 1),
  m(3, 1),
];

describe('the analysis of an exact endgame', () => {
  let harness: Harness;
  let game: FinishedGame;
  beforeAll(async () => {
    harness = await startHarness();
    game = await playFinishedGame(harness.server.url, 7, null, SCRIPT);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('on a phone: "wins with best play" before the move, and "this move throws away the win", in both languages', { timeout: 240_000 }, async () => {
    const phone = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, speed: 'fast' });
    const { page } = phone;
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=21`);
    await page.tap('[data-analyse]');
    await page.waitForSelector('[data-analysis="done"] [data-move-detail="21"]', { timeout: 180_000 });
    const analysis = (await (await fetch(`${harness.server.url}/api/matches/${game.matchId}/analysis`)).json()) as AnalysisResponse;
    const ply = analysis.plies![20]!;
    expect(ply.throwsWin).toBe(true);
    expect(ply.bestPlay!.lower).toBeGreaterThanOrEqual(4);
    expect(ply.label).toBe('blunder');

    const proved = (await page.textContent('[data-best-play]'))!;
    expect(proved).toMatch(new RegExp(`^With best play .+ wins(, by at least| by) ${ply.bestPlay!.lower}\\.$`));
    expect(await page.textContent('[data-throws-win]')).toBe('This move throws away the win.');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await page.tap('[data-lang="vi"]');
    await page.waitForFunction(() => document.querySelector('[data-throws-win]')?.textContent === 'Nước này đánh mất thế thắng.');
    expect(await page.textContent('[data-best-play]')).toMatch(new RegExp(`^.+ thắng (ít nhất )?${ply.bestPlay!.lower} với nước đi tốt nhất\\.$`));
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
