import { formatMove, legalMoves, newGame, play, PRESETS, type State } from '@oanquan/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boardCounts,
  horizontalOverflow,
  newPlayer,
  screenshot,
  seeded,
  startHarness,
  verticalOverflow,
  type Harness,
  type Player,
} from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

describe('a room in Chromium: two players, link, opener and a whole game by clicks', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ ABANDON_GRACE_MS: '1500' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('plays a complete game on the board and shows both players the right result', { timeout: 180_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await openRoom(harness.server.url, a, b);
    expect(await a.page.getAttribute('[data-room]', 'data-seat')).toBe('0');
    expect(await b.page.getAttribute('[data-room]', 'data-seat')).toBe('1');
    await playOpener(a, b);

    const pages: Record<0 | 1, Player> = { 0: a, 1: b };
    const choose = seeded(11);
    let state: State = newGame({ rules: PRESETS.classic, first: 0 });
    const notations: string[] = [];
    while (state.position.status === 'playing') {
      const mover = state.position.toMove;
      const legal = legalMoves(state);
      const move = legal[choose(legal.length)]!;
      const { page } = pages[mover];
      await page.click(`[data-board] [data-square="${move.square}"][data-legal]`);
      await page.click(`[data-board] [data-dir="${move.dir}"]`);
      const result = play(state, move);
      if (!result.ok) throw new Error(result.code);
      state = result.state;
      notations.push(formatMove(move, mover));
      for (const player of [a, b]) {
        await waitForPly(player.page, state.position.ply);
        expect(await boardCounts(player.page)).toEqual(state.position.squares);
      }
    }

    const score = state.position.result!.score;
    const winner = state.position.result!.winner;
    for (const [seat, player] of [[0, a], [1, b]] as const) {
      const result = player.page.locator('[data-result]');
      await result.waitFor();
      expect(await result.getAttribute('data-score')).toBe(`${score[0]}-${score[1]}`);
      expect(await result.getAttribute('data-result')).toBe(winner === null ? 'draw' : winner === seat ? 'won' : 'lost');
      expect(await player.page.textContent('[data-result] [data-score-seat="0"]')).toBe(String(score[0]));
      expect(await player.page.textContent('[data-result] [data-score-seat="1"]')).toBe(String(score[1]));
      const listed = await player.page.$$eval('.moves [data-ply]', (items) => items.map((item) => item.getAttribute('data-notation')));
      expect(listed).toEqual(notations);
      expect(await player.page.getAttribute('[data-replay-link]', 'href')).toMatch(/^\/m\/[0-9a-f-]{36}$/);
      expect(player.errors).toEqual([]);
    }
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('takes moves from the keyboard alone for either seat, then a resignation and a rematch', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);

    let state = newGame({ first: 0 });
    // Focus starts on another square: the key moves it to the chosen one, so the ring and the selection agree.
    await a.page.focus('[data-board] [data-square="1"]');
    await a.page.keyboard.press('3');
    expect(await a.page.getAttribute('[data-square="3"]', 'data-selected')).toBe('');
    expect(await a.page.evaluate(() => document.activeElement?.getAttribute('data-square'))).toBe('3');
    expect(await a.page.textContent('[data-board-said]')).not.toBe('');
    await a.page.keyboard.press('ArrowRight');
    await a.page.keyboard.press('Enter');
    // Once the move is sent, the chosen square is no longer announced.
    expect(await a.page.textContent('[data-board-said]')).toBe('');
    const first = play(state, { square: 3, dir: 1 });
    if (!first.ok) throw new Error(first.code);
    state = first.state;
    await waitForPly(b.page, 1);
    expect(await boardCounts(b.page)).toEqual(state.position.squares);

    // Seat 1's "2" is their second square from their own left (R1.4), ring index 8.
    await b.page.keyboard.press('2');
    await b.page.keyboard.press('ArrowLeft');
    await b.page.keyboard.press('Enter');
    const second = play(state, { square: 8, dir: -1 });
    if (!second.ok) throw new Error(second.code);
    await waitForPly(a.page, 2);
    expect(await boardCounts(a.page)).toEqual(second.state.position.squares);
    expect(await a.page.$$eval('.moves [data-ply]', (items) => items.map((item) => item.getAttribute('data-notation')))).toEqual(['3>', '2<']);

    // A resigns (after a confirmation); then both ask for a rematch and land in its opener.
    const firstMatch = await a.page.getAttribute('[data-room]', 'data-match');
    await a.page.click('[data-action="resign"]');
    await a.page.click('[data-action="confirm"]');
    for (const [player, outcome] of [[a, 'lost'], [b, 'won']] as const) {
      await player.page.waitForSelector(`[data-result="${outcome}"][data-reason="resign"]`);
    }
    await a.page.click('[data-action="rematch"]');
    await b.page.waitForSelector('[data-action="rematch"]:text-is("Accept rematch")');
    await b.page.click('[data-action="rematch"]');
    for (const { page } of [a, b]) {
      await page.waitForSelector('[data-room][data-status="opener"] [data-opener]');
      expect(await page.getAttribute('[data-room]', 'data-match')).not.toBe(firstMatch);
      await page.waitForSelector(`.links a[href="/m/${firstMatch}"]`);
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('sows stone by stone at normal speed, and not at all under reduced motion while no speed is chosen', async () => {
    const a = await newPlayer(harness.browser, { speed: 'normal' });
    const b = await newPlayer(harness.browser, { speed: null, reducedMotion: 'reduce' });
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    // Every frame is recorded in the page: a frame lasts a few hundred ms, which polling from here can miss on a busy machine.
    await a.page.evaluate(() => {
      const shown: string[] = [];
      (window as unknown as { shown: string[] }).shown = shown;
      new MutationObserver((changes) => {
        for (const change of changes) {
          const focus = (change.target as Element).getAttribute('data-focus');
          if (focus) shown.push(`${focus} ${(change.target as Element).getAttribute('data-square')}`);
        }
      }).observe(document.querySelector('[data-board]')!, { attributes: true, subtree: true, attributeFilter: ['data-focus'] });
    });
    await a.page.click('[data-board] [data-square="1"][data-legal]');
    await a.page.click('[data-board] [data-dir="-1"]');

    // R9 E1: five dân from square 1 toward the left, a relay from square 7, the quan square captured.
    await a.page.waitForSelector('[data-board][data-animating]');
    await waitForPly(a.page, 1);
    expect(await a.page.evaluate(() => (window as unknown as { shown: string[] }).shown)).toEqual([
      'pickup 1',
      ...[0, 11, 10, 9, 8].map((square) => `drop ${square}`),
      'relay 7',
      ...[6, 5, 4, 3, 2].map((square) => `drop ${square}`),
      'capture 0',
    ]);
    const after = [0, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6];
    expect(await boardCounts(a.page)).toEqual(after);
    expect(await a.page.getAttribute('[data-player="0"]', 'data-captured-quan')).toBe('1');

    await b.page.waitForSelector('[data-board][data-ply="1"]');
    expect(await b.page.$('[data-board][data-animating]')).toBeNull();
    expect(await boardCounts(b.page)).toEqual(after);
    expect(await b.page.inputValue('[data-speed]')).toBe('instant');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('aborts before the first move, and sends a move made while offline once the connection is back', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    await b.page.click('[data-action="abort"]');
    await b.page.click('[data-action="confirm"]');
    for (const { page } of [a, b]) await page.waitForSelector('[data-result="aborted"][data-reason="abort"]');
    expect(await a.page.$$('[data-board] [data-legal]')).toHaveLength(0);

    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    await a.context.setOffline(true);
    await a.page.waitForSelector('[data-banner="connection"]');
    await a.page.click('[data-board] [data-square="1"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    // Not refused: it waits for the connection (the banner says so), then goes with the moveId it was made with.
    expect(await a.page.$$('[data-notice="error"]')).toHaveLength(0);
    await a.context.setOffline(false);
    await a.page.waitForSelector('[data-banner="connection"]', { state: 'detached' });
    for (const { page } of [a, b]) await waitForPly(page, 1);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('lets the player who stayed claim the win when the opponent is gone past the grace period', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);
    await a.page.click('[data-board] [data-square="2"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    await waitForPly(b.page, 1);

    // B wanders off to the home page: from then on B is no longer in the room.
    await b.page.click('a.brand');
    await b.page.waitForSelector('[data-play]');
    await a.page.waitForSelector('[data-banner="opponent-gone"][data-seat="1"]');
    await a.page.click('[data-action="claim"]');
    await a.page.waitForSelector('[data-result="won"][data-reason="abandon"]');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('fits a phone and a desktop, shows watchers and says when a player is gone', async () => {
    const a = await newPlayer(harness.browser, { viewport: { width: 1280, height: 800 } });
    const b = await newPlayer(harness.browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    await openRoom(harness.server.url, a, b, (page) => page.click('[data-clock-choice="5+3"]'));
    await playOpener(a, b);
    let state = newGame({ first: 0 });
    const choose = seeded(3);
    for (let ply = 1; ply <= 5; ply++) {
      const legal = legalMoves(state);
      const move = legal[choose(legal.length)]!;
      const { page } = state.position.toMove === 0 ? a : b;
      await page.click(`[data-board] [data-square="${move.square}"][data-legal]`);
      await page.click(`[data-board] [data-dir="${move.dir}"]`);
      const result = play(state, move);
      if (!result.ok) throw new Error(result.code);
      state = result.state;
      await Promise.all([waitForPly(a.page, ply), waitForPly(b.page, ply)]);
    }
    await a.page.waitForSelector('[data-clock="1"][data-running]');

    const watcher = await newPlayer(harness.browser, { viewport: { width: 360, height: 740 }, isMobile: true });
    await watcher.page.goto(b.page.url());
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-board]');
    await a.page.waitForSelector('[data-spectators="1"]');
    expect(await watcher.page.$$('[data-board] [data-legal]')).toHaveLength(0);

    // Hand the move to B so the phone shows its own turn with the arrows row.
    await b.page.click('[data-board] [data-legal]');
    await screenshot(b.page, 'room-360x740');
    await screenshot(a.page, 'room-1280x800');
    expect(await horizontalOverflow(b.page)).toBeLessThanOrEqual(0);
    expect(await verticalOverflow(b.page)).toBeLessThanOrEqual(0);
    for (const player of [b, watcher]) expect(await moveListView(player.page)).toEqual({ cutAtTop: false, currentShown: true });
    for (const player of [a, b, watcher]) {
      await player.page.setViewportSize({ width: 320, height: 640 });
      expect(await horizontalOverflow(player.page)).toBeLessThanOrEqual(0);
    }
    expect(await verticalOverflow(b.page)).toBeLessThanOrEqual(0);

    // B loses the network: B is told the connection is lost, A that B is gone.
    await b.context.setOffline(true);
    await b.page.waitForSelector('[data-banner="connection"]');
    await a.page.waitForSelector('[data-banner="opponent-gone"][data-seat="1"]');
    await b.context.setOffline(false);
    await b.page.waitForSelector('[data-banner="connection"]', { state: 'detached' });
    await a.page.waitForSelector('[data-banner="opponent-gone"]', { state: 'detached' });
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });
});

/** Whether the phone's short move list shows its highlighted row whole and no row cut at its top edge. */
async function moveListView(page: Page): Promise<{ cutAtTop: boolean; currentShown: boolean }> {
  return page.$eval('.moves ol', (list) => {
    const box = list.getBoundingClientRect();
    const current = list.querySelector('[aria-current="true"]')!.getBoundingClientRect();
    return {
      cutAtTop: [...list.children].some((row) => {
        const r = row.getBoundingClientRect();
        return r.top < box.top - 0.5 && r.bottom > box.top + 0.5;
      }),
      currentShown: current.top >= box.top - 0.5 && current.bottom <= box.bottom + 0.5,
    };
  });
}
