import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startPostgresHarness, type PostgresHarness } from './support/harness.js';
import { openRoom, playOpener, waitForPly } from './support/room-flow.js';

describe('a move made in Chromium while the database is down', () => {
  let harness: PostgresHarness;
  beforeAll(async () => {
    harness = await startPostgresHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('is resent with its moveId until the database is back, then lands once and the game goes on', { timeout: 120_000 }, async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);

    await harness.database.stop();
    await a.page.click('[data-board] [data-square="2"][data-legal]');
    await a.page.click('[data-board] [data-dir="1"]');
    // Refused as UNAVAILABLE meanwhile: resent quietly, the move not shown as played, no error shown.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await a.page.getAttribute('[data-board]', 'data-ply')).toBe('0');
    await harness.database.start();

    for (const { page } of [a, b]) await waitForPly(page, 1);
    await b.page.locator('[data-board] [data-square][data-legal]').first().click();
    await b.page.click('[data-board] [data-dir="1"]');
    for (const { page } of [a, b]) await waitForPly(page, 2);
    expect(await a.page.$$('[data-notice="error"]')).toHaveLength(0);

    // Applied once: the record holds exactly the two moves.
    const record = await fetch(`${harness.server.url}/api/matches/${await a.page.getAttribute('[data-room]', 'data-match')}`);
    expect(record.status).toBe(200);
    expect(((await record.json()) as { moves: unknown[] }).moves).toHaveLength(2);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
