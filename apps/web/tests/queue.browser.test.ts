import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startHarness, type Harness } from './support/harness.js';
import { pairInQueue } from './support/room-flow.js';

describe('the public queue in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ QUEUE_TICK_MS: '200' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('can be left again with Cancel', async () => {
    const { page, errors, context } = await newPlayer(harness.browser);
    await page.goto(harness.server.url);
    await page.click('[data-play]:not([disabled])');
    await page.waitForSelector('[data-queue="searching"]');
    await page.click('[data-queue-cancel]');
    await page.waitForSelector('[data-queue="idle"] [data-play]');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('puts two players who press Play into the same match, with the pool’s clock', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser, { viewport: { width: 360, height: 740 }, isMobile: true, locale: 'vi-VN' });
    for (const { page } of [a, b]) await page.goto(harness.server.url);
    const link = await pairInQueue([a, b], '3+2');
    expect(a.page.url()).toBe(link);
    expect(b.page.url()).toBe(link);
    for (const { page } of [a, b]) await page.waitForSelector('[data-room][data-status="opener"] [data-opener]');
    const matchA = await a.page.getAttribute('[data-room]', 'data-match');
    expect(matchA).toMatch(/^[0-9a-f-]{36}$/);
    expect(await b.page.getAttribute('[data-room]', 'data-match')).toBe(matchA);
    const seats = [await a.page.getAttribute('[data-room]', 'data-seat'), await b.page.getAttribute('[data-room]', 'data-seat')];
    expect(seats.sort()).toEqual(['0', '1']);
    expect(await a.page.textContent('.info')).toContain('3 min + 2 s');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
