import { legalMoves, newGame, play, type Move, type State } from '@oanquan/rules';
import type { MatchRecord } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sowingFrames } from '../src/lib/board/frames.js';
import { sowingMs } from '../src/lib/board/sowing-pace.js';
import { boardCounts, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

const SLOW = 1.8;

/** The opening move whose sowing lasts longest, and how long it lasts at the slow speed. */
function longestOpening(): { move: Move; ms: number; after: State } {
  const start = newGame({ first: 0 });
  let best: { move: Move; ms: number; after: State } | undefined;
  for (const move of legalMoves(start)) {
    const result = play(start, move);
    if (!result.ok) throw new Error(result.code);
    const ms = sowingMs(sowingFrames(start.position, result.events, result.state.position)) * SLOW;
    if (!best || ms > best.ms) best = { move, ms, after: result.state };
  }
  return best!;
}

/** A room on a custom clock of `minutes` and no increment. */
async function timedRoom(url: string, a: Player, b: Player, minutes: string): Promise<void> {
  await openRoom(url, a, b, async (page) => {
    await page.click('[data-clock-choice="custom"]');
    const [length, increment] = [page.locator('[data-create-room] input[type="number"]').nth(0), page.locator('[data-create-room] input[type="number"]').nth(1)];
    await length.fill(minutes);
    await increment.fill('0');
  });
  await playOpener(a, b);
}

/** Records, in the page, when the board starts and stops showing a sowing. */
async function watchSowing(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks: Array<{ animating: boolean; at: number }> = [];
    (window as unknown as { sowingMarks: typeof marks }).sowingMarks = marks;
    const board = document.querySelector('[data-board]')!;
    let animating = board.hasAttribute('data-animating');
    new MutationObserver(() => {
      const now = board.hasAttribute('data-animating');
      if (now !== animating) marks.push({ animating: now, at: performance.now() });
      animating = now;
    }).observe(board, { attributes: true, attributeFilter: ['data-animating'] });
  });
}

async function sowingMarks(page: Page): Promise<Array<{ animating: boolean; at: number }>> {
  return page.evaluate(() => (window as unknown as { sowingMarks: Array<{ animating: boolean; at: number }> }).sowingMarks);
}

describe('the opponent’s sowing never holds a player with a running clock', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('takes a move in the middle of the opponent’s sowing: the sowing ends at once and the clock is charged only for the click', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { speed: 'slow' });
    await timedRoom(harness.server.url, a, b, '1');
    const opening = longestOpening();
    await watchSowing(b.page);

    await a.page.click(`[data-board] [data-square="${opening.move.square}"][data-legal]`);
    await a.page.click(`[data-board] [data-dir="${opening.move.dir}"]`);
    // B answers as soon as the sowing starts on their board.
    await b.page.waitForSelector('[data-board][data-ply="1"][data-animating]');
    const reply = legalMoves(opening.after)[0]!;
    await b.page.click(`[data-board] [data-square="${reply.square}"][data-legal]`);
    await b.page.click(`[data-board] [data-dir="${reply.dir}"]`);
    await waitForPly(b.page, 2);

    const replied = play(opening.after, reply);
    if (!replied.ok) throw new Error(replied.code);
    expect(await boardCounts(b.page)).toEqual(replied.state.position.squares);
    const [started, stopped] = await sowingMarks(b.page);
    expect(started?.animating).toBe(true);
    expect(stopped?.animating).toBe(false);

    // The server's own clock: what B's move cost B, against the sowing B would otherwise have watched.
    const matchId = await b.page.getAttribute('[data-room]', 'data-match');
    const record = (await (await fetch(`${harness.server.url}/api/matches/${matchId}`)).json()) as MatchRecord;
    const charged = 60_000 - record.moves[1]!.remainingMs!;
    console.info(`sowing at slow speed: ${Math.round(opening.ms)} ms; shown for ${Math.round(stopped!.at - started!.at)} ms; B's clock charged ${charged} ms`);
    expect(record.moves[1]!.seat).toBe(1);
    expect(charged).toBeLessThan(opening.ms);
    expect(stopped!.at - started!.at).toBeLessThan(opening.ms);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('hurries the opponent’s sowing by itself when the player’s own clock is low', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { speed: 'slow' });
    // 15 s: less than four times this sowing at the slow speed.
    await timedRoom(harness.server.url, a, b, '0.25');
    const opening = longestOpening();
    await watchSowing(b.page);
    const watcher = await newPlayer(harness.browser, { speed: 'slow' });
    await watcher.page.goto(b.page.url());
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-board]');
    await watchSowing(watcher.page);

    await a.page.click(`[data-board] [data-square="${opening.move.square}"][data-legal]`);
    await a.page.click(`[data-board] [data-dir="${opening.move.dir}"]`);
    await waitForPly(b.page, 1);
    await waitForPly(watcher.page, 1);
    expect(await boardCounts(b.page)).toEqual(opening.after.position.squares);

    const [started, stopped] = await sowingMarks(b.page);
    const hurried = stopped!.at - started!.at;
    const [watchStart, watchStop] = await sowingMarks(watcher.page);
    const watched = watchStop!.at - watchStart!.at;
    console.info(`sowing at slow speed: ${Math.round(opening.ms)} ms; the player with 15 s saw it for ${Math.round(hurried)} ms, a spectator for ${Math.round(watched)} ms`);
    // Timers never fire early, so an unhurried sowing could not take less than its full length.
    expect(hurried).toBeLessThan(opening.ms * 0.8);
    // A spectator has no clock at stake and sees the whole sowing.
    expect(watched).toBeGreaterThanOrEqual(opening.ms * 0.9);
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });
});
