import type { PuzzleAttemptResponse, PuzzleView } from '@oanquan/protocol';
import { legalMoves, play, stateFromPosition, type Move } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';

/** Plays a move on the board as a person does: the square, then the arrow of its direction. */
async function playOnBoard(page: Page, move: Move): Promise<PuzzleAttemptResponse> {
  const answer = page.waitForResponse((response) => response.url().includes('/attempts') && response.request().method() === 'POST');
  await page.click(`[data-board] [data-square="${move.square}"]`);
  await page.click(`[data-board] [data-dir="${move.dir}"]`);
  return (await (await answer).json()) as PuzzleAttemptResponse;
}

/** The puzzle the page shows, as the server describes it. */
async function shownPuzzle(page: Page): Promise<PuzzleView> {
  await page.waitForSelector('[data-puzzle-prompt]');
  const id = await page.getAttribute('[data-puzzle]', 'data-puzzle');
  return page.evaluate(async (puzzleId) => (await fetch(`/api/puzzles/${puzzleId}`)).json(), id);
}

describe('puzzles in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    // A new site makes its first puzzles from self-play as it starts; two are enough here.
    harness = await startHarness({ PUZZLES_AT_START: '2' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  // Its own ceiling above its waits: the puzzles come from self-play on an engine thread of the lowest
  // priority, which a loaded machine (load 20 in a full run) starves for longer than the 60 s default.
  it('opens the daily puzzle from the home page on a phone, plays it as a guest to an unrated verdict that shows the line, and an account solves it in Vietnamese', async () => {
    const first = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 } });
    await first.page.goto(harness.server.url);
    // The background job stores the puzzles a few seconds after the start. Polled from here: a page
    // function that returns a promise is truthy at once to waitForFunction, which then stops polling.
    await expect
      .poll(() => first.page.evaluate(async () => (await fetch('/api/puzzles/daily')).status), { interval: 250, timeout: 120_000 })
      .toBe(200);
    // What the pages were answered, so a card that does not come says why.
    const answers: string[] = [];
    first.page.on('response', (r) => new URL(r.url()).pathname === '/api/puzzles/daily' && answers.push(`${r.status()} ${r.request().frame().url()}`));
    await first.page.reload();
    await first.page.waitForSelector('[data-daily-link]', { timeout: 60_000 }).catch((error: Error) => {
      throw new Error(`no daily puzzle card after the reload; /api/puzzles/daily answered: ${answers.join(', ') || 'nothing'} (${error.message.split('\n')[0]})`);
    });
    await first.page.click('[data-daily-link]');
    await first.page.waitForURL(/\/puzzles\?daily/);
    const puzzle = await shownPuzzle(first.page);
    const daily = (await first.page.evaluate(async () => (await fetch('/api/puzzles/daily')).json())) as PuzzleView;
    expect(daily).toMatchObject({ id: puzzle.id, day: new Date().toISOString().slice(0, 10) });
    expect(await first.page.textContent('[data-puzzle] h2')).toContain(daily.day);

    // A guest is told before the first move that their tries are not rated.
    expect(await first.page.textContent('[data-puzzle-unrated]')).toContain('not rated');
    // The first solver plays the first legal move each time until the verdict, which reveals the line.
    let game = stateFromPosition(puzzle.position, puzzle.rules);
    let verdict: PuzzleAttemptResponse;
    for (;;) {
      const move = legalMoves(game)[0]!;
      verdict = await playOnBoard(first.page, move);
      if (verdict.status !== 'continue') break;
      await first.page.waitForSelector('[data-phase="solving"]');
      const mine = play(game, move);
      if (!mine.ok) throw new Error(mine.code);
      const theirs = play(mine.state, verdict.reply);
      if (!theirs.ok) throw new Error(theirs.code);
      game = theirs.state;
    }
    await first.page.waitForSelector(`[data-phase="${verdict.status}"]`);
    expect(verdict).toMatchObject({ solver: null, puzzle: null });
    expect(await first.page.textContent('[data-rating-change]')).toContain('Guests\' tries are not rated');
    expect(await first.page.locator('[data-puzzle-themes] li').count()).toBe(puzzle.themes.length);
    // The line, animated from the puzzle's position, ends on the position the line leads to.
    await first.page.click('[data-show-line]');
    let end = stateFromPosition(puzzle.position, puzzle.rules);
    for (const move of verdict.line) {
      const next = play(end, move);
      if (!next.ok) throw new Error(next.code);
      end = next.state;
    }
    await first.page.waitForFunction(
      (squares) => squares.every((count, square) => document.querySelector(`[data-board] [data-square="${square}"]`)?.getAttribute('data-count') === String(count)),
      end.position.squares,
    );
    expect(await horizontalOverflow(first.page)).toBeLessThanOrEqual(0);
    expect(first.errors).toEqual([]);
    await first.context.close();

    // A second solver, in Vietnamese, keeps an account, plays the line and solves it: their rating goes up.
    const second = await newPlayer(harness.browser, { locale: 'vi-VN', viewport: { width: 320, height: 640 } });
    await second.page.goto(harness.server.url);
    await second.page.waitForSelector('[data-me] [data-my-name]');
    await keepAccount(second.page, 'puzzle_solver');
    await second.page.goto(`${harness.server.url}/puzzles?id=${puzzle.id}`);
    await shownPuzzle(second.page);
    for (let i = 0; i < verdict.line.length; i += 2) {
      await second.page.waitForSelector('[data-phase="solving"]');
      const answer = await playOnBoard(second.page, verdict.line[i]!);
      expect(answer.status).toBe(i + 1 === verdict.line.length ? 'solved' : 'continue');
    }
    await second.page.waitForSelector('[data-phase="solved"]');
    expect(await second.page.textContent('[data-puzzle-prompt]')).toContain('Giải được rồi');
    expect(await second.page.textContent('[data-rating-change]')).toMatch(/1500 → 1[5-9]\d\d \(\+\d+\)/);

    // The next puzzle is another one (the solver has tried this one).
    await second.page.click('[data-next-puzzle]');
    await second.page.waitForFunction((id) => {
      const shown = document.querySelector('[data-puzzle]')?.getAttribute('data-puzzle');
      return shown && shown !== id && document.querySelector('[data-phase="solving"]');
    }, puzzle.id);
    expect(await horizontalOverflow(second.page)).toBeLessThanOrEqual(0);
    expect(second.errors).toEqual([]);
    await second.context.close();
  }, 300_000);
});
