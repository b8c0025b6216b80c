import { formatMove, legalMoves, newGame, play, type Move } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameOfNotation } from '../src/lib/match/move-name.js';
import { newPlayer, seeded, startHarness, type Harness } from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

/** The name of every move in the page's move list, in order. */
function listed(page: Page): Promise<string[]> {
  return page.$$eval('.moves [data-ply] [data-move-name]', (found) => found.map((name) => name.textContent!.trim()));
}

/** The last word of a text: the move's name after the mover's. */
function lastWord(text: string | null): string {
  return (text ?? '').trim().split(/\s+/).at(-1)!;
}

describe('one name for a move on every surface', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ ANALYSIS_DEPTH: '4' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('both players, a spectator, the replay either way up, the analysis and the download name each move alike', { timeout: 240_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    const link = await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    const watcher = await newPlayer(harness.browser, { viewport: { width: 390, height: 844 }, isMobile: true });
    await watcher.page.goto(link);
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-board]');

    // Eight plies of both seats, each played by clicking on the mover's own board.
    let state = newGame({ first: 0 });
    const choose = seeded(23);
    const expected: string[] = [];
    for (let ply = 0; ply < 8 && state.position.status === 'playing'; ply++) {
      // Both ways round, for both movers.
      const legal = legalMoves(state);
      const wanted = legal.filter((m) => m.dir === (ply % 4 < 2 ? -1 : 1));
      const move: Move = wanted.length > 0 ? wanted[choose(wanted.length)]! : legal[choose(legal.length)]!;
      const mover = state.position.toMove;
      const page = (mover === 0 ? a : b).page;
      await page.click(`[data-board] [data-square="${move.square}"][data-legal]`);
      await page.click(`[data-board] [data-dir="${move.dir}"]`);
      const result = play(state, move);
      if (!result.ok) throw new Error(result.code);
      state = result.state;
      expected.push(nameOfNotation(formatMove(move, mover))!);
      for (const { page: seen } of [a, b, watcher]) await waitForPly(seen, ply + 1);
    }
    expect(expected.length).toBeGreaterThanOrEqual(4);
    // Both rotations and both movers occur, or the comparison proves little.
    expect(new Set(expected.map((name) => name.at(-1)))).toEqual(new Set(['↺', '↻']));

    for (const { page } of [a, b, watcher]) expect(await listed(page)).toEqual(expected);

    await a.page.click('[data-action="resign"]');
    await a.page.click('[data-action="confirm"]');
    for (const { page } of [a, b, watcher]) await page.waitForSelector('[data-result][data-reason="resign"]');
    const matchId = (await a.page.getAttribute('[data-room]', 'data-match'))!;

    // The replay, as each of the two players opens it (the second sees it turned around), then turned by hand.
    for (const { page } of [a, b]) {
      await page.goto(`${harness.server.url}/m/${matchId}`);
      await page.waitForSelector('[data-replay] .moves [data-move-name]');
      expect(await listed(page)).toEqual(expected);
    }
    await a.page.click('[aria-pressed][aria-label="Turn the board around"]');
    await a.page.waitForSelector('[aria-pressed="true"][aria-label="Turn the board around"]');
    expect(await listed(a.page)).toEqual(expected);

    // The analysis names the move it judges, and the best move instead, the same way.
    await b.page.click('[data-analyse]');
    await b.page.waitForSelector('[data-analysis="done"]', { timeout: 60_000 });
    for (const [i, name] of expected.entries()) {
      await b.page.click(`.moves button[data-ply="${i + 1}"]`);
      const detail = b.page.locator(`[data-move-detail="${i + 1}"]`);
      expect(lastWord(await detail.locator('[data-played-name]').textContent())).toBe(name);
      const instead = detail.locator('[data-best-instead]');
      if (await instead.count()) {
        expect(await instead.textContent()).toContain(nameOfNotation((await instead.getAttribute('data-best-instead'))!));
      }
    }

    // The download keeps R7 text; each of its moves maps to the same name.
    const record = await (await fetch(`${harness.server.url}/api/matches/${matchId}/record`)).text();
    const moveText = record
      .split('\n')
      .filter((line) => !line.startsWith('['))
      .join(' ');
    const notations = moveText.match(/(?<=\s|^)[1-5][<>](?=\s|$)/g) ?? [];
    expect(notations.map(nameOfNotation)).toEqual(expected);

    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });
});
