import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startPostgresHarness, type PostgresHarness } from './support/harness.js';
import { spectatorSnapshot } from './support/live-game.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

/** Longer than a silence of the whole service may be before it is credited. */
const outageMs = 6000;
/** What the countdowns may differ from the server's by: whole seconds shown, read a moment apart. */
const slackSeconds = 1.5;

describe('countdowns in Chromium across a database outage the server lives through', () => {
  let harness: PostgresHarness;
  beforeAll(async () => {
    harness = await startPostgresHarness({ FIRST_MOVE_TIMEOUT_MS: '60000' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const outage = async () => {
    await harness.database.stop();
    await new Promise((resolve) => setTimeout(resolve, outageMs));
    await harness.database.start();
  };
  /** The room's match as the server has it once it answers again (a snapshot waits for the credit). */
  const serverView = async (code: string) => {
    for (let tries = 1; ; tries++) {
      try {
        return await spectatorSnapshot(harness.server.url, code);
      } catch (error) {
        if (tries === 40) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  /** Waits until a countdown the page shows (whole seconds, under `selector`) is the server's, which ends at `end`. */
  const follows = (page: Page, selector: string, end: number) =>
    page.waitForFunction(
      ([selector, end, slack]) => {
        const text = document.querySelector(selector)?.textContent ?? '';
        // "m:ss" on a clock, "… 57 s" in a sentence.
        const clock = text.match(/(\d+):(\d\d)/);
        const shown = clock ? Number(clock[1]) * 60 + Number(clock[2]) : Number(text.match(/\d+/)?.[0] ?? NaN);
        return Math.abs(shown - (end - Date.now()) / 1000) <= slack;
      },
      [selector, end, slackSeconds] as const,
      { timeout: 20_000 },
    );

  it('the first move’s countdown and the running clock follow the server’s credit', { timeout: 180_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    const link = await openRoom(harness.server.url, a, b, (page) => page.click('[data-clock-choice="5+3"]'));
    const code = link.slice(link.lastIndexOf('/') + 1);
    await playOpener(a, b);

    await outage();
    const waiting = await serverView(code);
    const firstMoveDeadline = Date.parse(waiting.firstMoveDeadline!);
    for (const { page } of [a, b]) {
      await follows(page, '[data-first-move-countdown]', firstMoveDeadline);
    }

    await a.page.click('[data-board] [data-square="2"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    for (const { page } of [a, b]) await waitForPly(page, 1);
    await outage();
    const playing = await serverView(code);
    expect(playing.clocks?.running).toBe(1);
    // Seat 1's clock runs out at this instant, as the server has it.
    const clockEnd = Date.parse(playing.clocks!.asOf) + playing.clocks!.remainingMs[1];
    for (const { page } of [a, b]) {
      await follows(page, '[data-clock="1"]', clockEnd);
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
