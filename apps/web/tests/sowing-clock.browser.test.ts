import { legalMoves, newGame, play, sowingAllowanceMs, type Move, type State } from '@oanquan/rules';
import type { Clocks, MatchRecord, Seat } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sowingFrames } from '../src/lib/board/frames.js';
import { sowingMs } from '../src/lib/board/sowing-pace.js';
import { boardCounts, newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { watchRoom } from './support/live-game.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

const SLOW = 1.8;

/** The opening move whose sowing lasts longest: how long it lasts at the slow speed, and its allowance. */
function longestOpening(): { move: Move; ms: number; allowance: number; after: State } {
  const start = newGame({ first: 0 });
  let best: { move: Move; ms: number; allowance: number; after: State } | undefined;
  for (const move of legalMoves(start)) {
    const result = play(start, move);
    if (!result.ok) throw new Error(result.code);
    const ms = sowingMs(sowingFrames(start.position, result.events, result.state.position)) * SLOW;
    if (!best || ms > best.ms) best = { move, ms, allowance: sowingAllowanceMs(result.events), after: result.state };
  }
  return best!;
}

/** A room on a custom clock of `minutes` and `increment` seconds; returns its code. */
async function timedRoom(url: string, a: Player, b: Player, minutes: string, increment = '0'): Promise<string> {
  const link = await openRoom(url, a, b, async (page) => {
    await page.click('[data-clock-choice="custom"]');
    const inputs = page.locator('[data-create-room] input[type="number"]');
    await inputs.nth(0).fill(minutes);
    await inputs.nth(1).fill(increment);
  });
  await playOpener(a, b);
  return link.split('/').at(-1)!;
}

interface Mark {
  animating: boolean;
  at: number;
  /** What the page's clock of `seat` showed then, in ms, and whether it stood still. */
  clockMs: number;
  paused: boolean;
}

/** Records, in the page, when the board starts and stops showing a sowing, with what the clock of `seat` shows then. */
async function watchSowing(page: Page, seat: Seat): Promise<void> {
  await page.evaluate((seat) => {
    const marks: Mark[] = [];
    (window as unknown as { sowingMarks: Mark[] }).sowingMarks = marks;
    const board = document.querySelector('[data-board]')!;
    let animating = board.hasAttribute('data-animating');
    new MutationObserver(() => {
      const now = board.hasAttribute('data-animating');
      if (now === animating) return;
      const clock = document.querySelector(`[data-clock="${seat}"]`);
      marks.push({ animating: now, at: performance.now(), clockMs: Number(clock?.getAttribute('data-ms')), paused: clock?.hasAttribute('data-paused') ?? false });
      animating = now;
    }).observe(board, { attributes: true, attributeFilter: ['data-animating'] });
  }, seat);
}

async function sowingMarks(page: Page): Promise<Mark[]> {
  return page.evaluate(() => (window as unknown as { sowingMarks: Mark[] }).sowingMarks);
}

async function playMove(page: Page, move: Move): Promise<void> {
  await page.click(`[data-board] [data-square="${move.square}"][data-legal]`);
  await page.click(`[data-board] [data-dir="${move.dir}"]`);
}

/** The page's clocks as shown: each seat's time in ms, and when the running one runs out (local ms). */
async function shownClocks(page: Page): Promise<Array<{ seat: number; ms: number; runsOut: number | null }>> {
  return page.$$eval('[data-clock]', (clocks) =>
    clocks.map((clock) => ({
      seat: Number(clock.getAttribute('data-clock')),
      ms: Number(clock.getAttribute('data-ms')),
      runsOut: clock.hasAttribute('data-runs-out') ? Number(clock.getAttribute('data-runs-out')) : null,
    })),
  );
}

/** The server's deadline for the running clock: its start (the end of the sowing allowance) plus its time. */
function serverDeadline(clocks: Clocks): number {
  const from = Math.max(Date.parse(clocks.asOf), clocks.startsAt ? Date.parse(clocks.startsAt) : 0);
  return from + clocks.remainingMs[clocks.running!];
}

describe('the sowing allowance: no clock runs while the stones move', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('the waiting player’s clock stands across the opponent’s sowing, shown within the allowance at the default speed even to those who chose slow', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { speed: 'slow' });
    // What B's socket receives, with the local instant: shown if B's clock does not stand at its full time.
    const received: string[] = [];
    b.page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => void received.push(`${Date.now()} ${String(payload).slice(0, 400)}`)));
    await timedRoom(harness.server.url, a, b, '1');
    const opening = longestOpening();
    await watchSowing(b.page, 1);
    const watcher = await newPlayer(harness.browser, { speed: 'slow' });
    await watcher.page.goto(b.page.url());
    await watcher.page.waitForSelector('[data-room][data-seat="spectator"] [data-board]');
    await watchSowing(watcher.page, 1);

    await playMove(a.page, opening.move);
    await waitForPly(b.page, 1);
    await waitForPly(watcher.page, 1);
    expect(await boardCounts(b.page)).toEqual(opening.after.position.squares);

    const [started, stopped] = await sowingMarks(b.page);
    const [watchStart, watchStop] = await sowingMarks(watcher.page);
    const shown = stopped!.at - started!.at;
    const watched = watchStop!.at - watchStart!.at;
    console.info(
      `sowing at slow speed: ${Math.round(opening.ms)} ms, allowance ${opening.allowance} ms; B saw it for ${Math.round(shown)} ms, a spectator for ${Math.round(watched)} ms; B's clock ${started!.clockMs} → ${stopped!.clockMs} ms`,
    );
    // B's clock across A's sowing: it stands still, shown as waiting, to B and to a spectator.
    expect(started!.paused).toBe(true);
    expect(watchStart!.paused).toBe(true);
    expect(watchStop!.clockMs).toBe(watchStart!.clockMs);
    expect(Math.abs(stopped!.clockMs - started!.clockMs)).toBeLessThan(100);
    expect(started!.clockMs, `B's clock when the sowing began; B's marks ${JSON.stringify(await sowingMarks(b.page))}; B received:\n${received.slice(-20).join('\n')}`).toBe(60_000);
    // The sowing fits the allowance (timers may fire late on a busy machine): no one watches it at the slow speed in a timed game.
    expect(shown).toBeLessThan(opening.allowance + 600);
    expect(watched).toBeLessThan(opening.allowance + 600);
    expect(shown).toBeLessThan(opening.ms * 0.8);

    // Then B's clock runs, on every screen.
    for (const page of [b.page, watcher.page, a.page]) {
      await page.waitForSelector('[data-clock="1"][data-running]:not([data-paused])', { timeout: 10_000 });
      await page.waitForFunction(() => Number(document.querySelector('[data-clock="1"]')?.getAttribute('data-ms')) < 59_500, undefined, { timeout: 10_000 });
    }
    expect([...a.errors, ...b.errors, ...watcher.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), watcher.context.close()]);
  });

  it('takes a move in the middle of the opponent’s sowing: the sowing ends at once and the clock is charged nothing', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { speed: 'slow' });
    await timedRoom(harness.server.url, a, b, '1');
    const opening = longestOpening();
    await watchSowing(b.page, 1);

    await playMove(a.page, opening.move);
    // B answers as soon as the sowing starts on their board.
    await b.page.waitForSelector('[data-board][data-ply="1"][data-animating]');
    const reply = legalMoves(opening.after)[0]!;
    await playMove(b.page, reply);
    await waitForPly(b.page, 2);

    const replied = play(opening.after, reply);
    if (!replied.ok) throw new Error(replied.code);
    expect(await boardCounts(b.page)).toEqual(replied.state.position.squares);
    const [started, stopped] = await sowingMarks(b.page);
    expect(started?.animating).toBe(true);
    expect(stopped?.animating).toBe(false);

    // The server's own clock: B answered within the allowance, which costs nothing.
    const matchId = await b.page.getAttribute('[data-room]', 'data-match');
    const record = (await (await fetch(`${harness.server.url}/api/matches/${matchId}`)).json()) as MatchRecord;
    console.info(`sowing at slow speed: ${Math.round(opening.ms)} ms; shown for ${Math.round(stopped!.at - started!.at)} ms; B's clock charged ${60_000 - record.moves[1]!.remainingMs!} ms`);
    expect(record.moves[1]!.seat).toBe(1);
    expect(record.moves[1]!.remainingMs).toBe(60_000);
    expect(stopped!.at - started!.at).toBeLessThan(opening.ms);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });

  it('after every change of a deadline (the allowance, the increment) each screen’s countdown is the server’s within 100 ms', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { speed: 'normal' });
    const code = await timedRoom(harness.server.url, a, b, '1', '2');
    const server = await watchRoom(harness.server.url, code);
    try {
      let state = newGame({ first: 0 });
      const players = [a, b] as const;
      for (let ply = 1; ply <= 4; ply++) {
        const mover = state.position.toMove;
        const move = legalMoves(state)[0]!;
        await playMove(players[mover].page, move);
        for (const player of players) await waitForPly(player.page, ply);
        const result = play(state, move);
        if (!result.ok) throw new Error(result.code);
        state = result.state;

        const clocks = (await server.clocks())!;
        expect(clocks.running).toBe(state.position.toMove);
        const deadline = serverDeadline(clocks);
        for (const player of players) {
          const shown = await shownClocks(player.page);
          const running = shown.find((clock) => clock.seat === clocks.running)!;
          const waiting = shown.find((clock) => clock.seat === mover)!;
          console.info(`ply ${ply}: ${player === a ? 'A' : 'B'} counts down to ${running.runsOut! - deadline} ms from the server's deadline; the mover's time with its increment is ${waiting.ms - clocks.remainingMs[mover]} ms from the server's`);
          expect(Math.abs(running.runsOut! - deadline)).toBeLessThanOrEqual(100);
          expect(Math.abs(waiting.ms - clocks.remainingMs[mover])).toBeLessThanOrEqual(100);
        }
      }
    } finally {
      server.close();
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
