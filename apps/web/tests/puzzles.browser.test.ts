import type { PuzzleAttemptResponse, PuzzleView } from '@oanquan/protocol';
import { legalMoves, play, stateFromPosition, type Move, type Position, type RuleOptions } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveName } from '../src/lib/match/move-name.js';
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

/** The line's moves as the game log names them: `3↺`, each from its mover's side. */
function lineNames(position: Position, rules: RuleOptions, line: readonly Move[]): string[] {
  let state = stateFromPosition(position, rules);
  return line.map((move) => {
    const name = moveName({ seat: state.position.toMove, ...move });
    const next = play(state, move);
    if (!next.ok) throw new Error(next.code);
    state = next.state;
    return name;
  });
}

/** The smaller side of each element's box: a finger needs 44 px both ways. */
async function targetSizes(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(selector, (elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return Math.min(box.width, box.height);
    }),
  );
}

/** Walks a puzzle as a guest over the API, the first legal move each time, to the verdict: its line, unrated. */
async function lineOf(page: Page, puzzle: PuzzleView): Promise<Move[]> {
  let game = stateFromPosition(puzzle.position, puzzle.rules);
  const mine: Move[] = [];
  for (;;) {
    const move = legalMoves(game)[0]!;
    mine.push({ square: move.square, dir: move.dir });
    const verdict = (await page.evaluate(
      async ({ id, moves }) =>
        (await fetch(`/api/puzzles/${id}/attempts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ moves }) })).json(),
      { id: puzzle.id, moves: mine },
    )) as PuzzleAttemptResponse;
    if (verdict.status !== 'continue') return verdict.line;
    const after = play(game, move);
    if (!after.ok) throw new Error(after.code);
    const reply = play(after.state, verdict.reply);
    if (!reply.ok) throw new Error(reply.code);
    game = reply.state;
  }
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
  it('opens the daily puzzle from the home page on a phone, shows a guest the solution named as the game log names moves, and gives an account in Vietnamese a provisional rating, fresh counts and each puzzle its own address', async () => {
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
    // The daily puzzle links to its own address, the one that stays this puzzle after today.
    expect(await first.page.getAttribute('[data-puzzle-link]', 'href')).toBe(`/puzzles/${puzzle.id}`);

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
    expect(verdict).toMatchObject({ solver: null, puzzle: null, attempts: 0, solved: 0 });
    expect(await first.page.textContent('[data-rating-change]')).toContain('Guests\' tries are not rated');
    expect(await first.page.locator('[data-puzzle-themes] li').count()).toBe(puzzle.themes.length);
    // The solution is listed as the game log lists moves: numbered, named from the mover's side, in words.
    const names = lineNames(puzzle.position, puzzle.rules, verdict.line);
    expect(await first.page.$$eval('[data-solution] [data-move-name]', (marks) => marks.map((mark) => mark.textContent))).toEqual(names);
    expect(await first.page.$$eval('[data-solution] .n', (numbers) => numbers.map((n) => n.textContent))).toEqual(names.map((_, i) => `${i + 1}.`));
    expect(await first.page.textContent('[data-solution] .say')).toMatch(/^You sowed your square \d/);
    // Its two buttons are the site's, big enough for a finger.
    for (const size of await targetSizes(first.page, '[data-show-line], [data-next-puzzle]')) expect(size).toBeGreaterThanOrEqual(44);
    expect(await first.page.getAttribute('[data-next-puzzle]', 'class')).toMatch(/\bbtn\b.*\bprimary\b/);
    // The line, animated from the puzzle's position, ends on the position the line leads to, its last move marked.
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
    expect(await first.page.getAttribute('[data-solution] [aria-current="true"]', 'data-ply')).toBe(String(verdict.line.length));
    expect(await horizontalOverflow(first.page)).toBeLessThanOrEqual(0);
    expect(first.errors).toEqual([]);

    // A second solver, in Vietnamese, keeps an account and opens the puzzle by an older shared link: it moves to its own address.
    const second = await newPlayer(harness.browser, { locale: 'vi-VN', viewport: { width: 320, height: 640 } });
    await second.page.goto(harness.server.url);
    await second.page.waitForSelector('[data-me] [data-my-name]');
    await keepAccount(second.page, 'puzzle_solver');
    await second.page.goto(`${harness.server.url}/puzzles?id=${puzzle.id}`);
    await second.page.waitForURL(new RegExp(`/puzzles/${puzzle.id}$`));
    expect((await shownPuzzle(second.page)).id).toBe(puzzle.id);
    // A new solver's rating is provisional, and the page says what the "?" means.
    expect(await second.page.textContent('[data-solver-rating]')).toContain('1500?');
    expect(await second.page.textContent('[data-provisional]')).toContain('tạm tính');
    for (let i = 0; i < verdict.line.length; i += 2) {
      await second.page.waitForSelector('[data-phase="solving"]');
      const answer = await playOnBoard(second.page, verdict.line[i]!);
      expect(answer.status).toBe(i + 1 === verdict.line.length ? 'solved' : 'continue');
    }
    await second.page.waitForSelector('[data-phase="solved"]');
    expect(await second.page.textContent('[data-puzzle-prompt]')).toContain('Giải được rồi');
    expect(await second.page.textContent('[data-rating-change]')).toMatch(/1500\? → 1[5-9]\d\d\? \(\+\d+\)/);
    expect(await second.page.textContent('[data-provisional]')).toContain('tạm tính');
    // The try just made is counted at once (the guest's was not rated, so it is the first).
    expect(await second.page.textContent('[data-puzzle-counts]')).toBe('giải được 1 / 1 lần');
    expect(await second.page.textContent('[data-solution] .say')).toMatch(/^Bạn rải ô \d/);

    // The next puzzle is another one (the solver has tried this one), at its own address, which opens it again.
    await second.page.click('[data-next-puzzle]');
    await second.page.waitForURL((url) => /^\/puzzles\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(puzzle.id));
    const nextId = new URL(second.page.url()).pathname.split('/').pop()!;
    await second.page.waitForSelector(`[data-puzzle="${nextId}"][data-phase="solving"]`);
    await second.page.reload();
    await second.page.waitForSelector(`[data-puzzle="${nextId}"][data-phase="solving"]`);
    expect(new URL(second.page.url()).pathname).toBe(`/puzzles/${nextId}`);

    // Failing it costs rating points, written with a true minus sign as everywhere on the site.
    const next = await shownPuzzle(second.page);
    const nextLine = await lineOf(first.page, next);
    const wrong = legalMoves(stateFromPosition(next.position, next.rules)).find((move) => move.square !== nextLine[0]!.square || move.dir !== nextLine[0]!.dir)!;
    expect((await playOnBoard(second.page, wrong)).status).toBe('failed');
    await second.page.waitForSelector('[data-phase="failed"]');
    expect(await second.page.textContent('[data-rating-change]')).toMatch(/ \(\u2212\d+\)$/);
    expect(await second.page.textContent('[data-puzzle-counts]')).toBe('giải được 0 / 1 lần');
    expect(await horizontalOverflow(second.page)).toBeLessThanOrEqual(0);

    // Back goes to the puzzle before, by its address.
    await second.page.goBack();
    await second.page.waitForSelector(`[data-puzzle="${puzzle.id}"]`);
    expect(new URL(second.page.url()).pathname).toBe(`/puzzles/${puzzle.id}`);
    expect([...first.errors, ...second.errors]).toEqual([]);
    await Promise.all([first.context.close(), second.context.close()]);
  }, 300_000);
});
