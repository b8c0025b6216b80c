import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsScreenshot, horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { openRoom } from './support/room-flow.js';

const counts = (page: import('playwright-core').Page, id: string) =>
  page.$$eval(`[data-diagram="${id}"] [data-diagram-square]`, (cells) => {
    const out: number[] = Array(12).fill(-1);
    for (const cell of cells) out[Number(cell.getAttribute('data-diagram-square'))] = Number(cell.getAttribute('data-count'));
    return out;
  });

describe('the rules page in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('explains every part of a turn with boards the rules computed, in both languages, on a phone and a desktop', { timeout: 120_000 }, async () => {
    const desktop = await newPlayer(harness.browser);
    await desktop.page.goto(harness.server.url);
    await desktop.page.click('[data-nav-rules]');
    await desktop.page.waitForSelector('[data-rules-page]');
    const sections = await desktop.page.$$eval('[data-rule-section]', (els) => els.map((el) => el.getAttribute('data-rule-section')));
    expect(sections).toEqual(['sowing', 'capture', 'chain', 'quan-non', 'refill', 'end']);
    // The rule numbers of the specification are for its readers, not for players.
    expect(await desktop.page.textContent('[data-rules-page]')).not.toMatch(/\bR\d|\bE\d\b/);

    // Instant speed shows each diagram's last step: R9 E3's and E2's boards, as rules.md writes them
    // (once the page has hydrated and stepped through: polled, for a busy machine).
    await expect.poll(() => counts(desktop.page, 'sowing')).toEqual([1, 6, 0, 0, 6, 6, 1, 6, 0, 6, 6, 6]);
    await expect.poll(() => counts(desktop.page, 'quan-non')).toEqual([1, 0, 6, 6, 6, 6, 1, 0, 6, 6, 6, 6]);
    expect(await desktop.page.$('[data-diagram="capture"] [data-diagram-square="0"] .piece')).toBeNull();
    // Stepping back goes to the start position.
    const steps = Number(await desktop.page.getAttribute('[data-diagram="sowing"]', 'data-steps'));
    for (let i = 1; i < steps; i++) await desktop.page.click('[data-diagram="sowing"] .controls button >> nth=0');
    await expect.poll(() => counts(desktop.page, 'sowing')).toEqual([0, 5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5]);
    expect(await desktop.page.textContent('[data-rule-section="end"] [data-breakdown-row="total"]')).toMatch(/33\s*37/);
    await docsScreenshot(desktop.page, 'rules-1280', { clip: { x: 0, y: 0, width: 1280, height: 900 } });

    const phone = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    await phone.page.goto(`${harness.server.url}/rules`);
    await phone.page.waitForSelector('[data-rules-page]');
    expect(await phone.page.textContent('h1')).toBe('Cách chơi Ô ăn quan');
    expect(await horizontalOverflow(phone.page)).toBeLessThanOrEqual(0);
    await docsScreenshot(phone.page, 'rules-320');
    expect([...desktop.errors, ...phone.errors]).toEqual([]);
    await Promise.all([desktop.context.close(), phone.context.close()]);
  });

  it('is linked from a room, which names its variant', { timeout: 60_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    expect(await a.page.getAttribute('[data-rules-variant]', 'data-rules-variant')).toBe('classic');
    await a.page.click('[data-rules-variant-link]');
    await a.page.waitForSelector('[data-rules-page]');
    expect(new URL(a.page.url()).hash).toBe('#variant-classic');
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
