import { dataExport, type MatchRecord, type MeResponse, type PlayerProfile } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadedText, horizontalOverflow, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame } from './support/live-game.js';

const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true };

/** A same-origin GET as the page's own person (its session cookie). */
const read = <T,>(page: Page, path: string) => page.evaluate(async (url) => (await (await fetch(url)).json()) as T, path);

/** Presses the page's download button and reads the file the browser saved. */
async function downloaded(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-export-download]')]);
  return { name: download.suggestedFilename(), file: dataExport.parse(JSON.parse(await downloadedText(download))) };
}

describe('downloading one’s data from the account page, in Chromium on a 320 px phone', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('saves a file holding the account’s profile, sessions and the game with every move, in Vietnamese', { timeout: 120_000 }, async () => {
    const game = await playFinishedGame(harness.server.url, 11, { initialSeconds: 300, incrementSeconds: 2 }, [], ['Người_Tải', 'doi_thu']);
    const { page, errors } = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN', acceptDownloads: true });
    await page.goto(harness.server.url);
    // The page's own guest first, so that its cookie cannot land after the sign-in's.
    await page.waitForSelector('[data-my-name]');
    const login = await page.evaluate(
      async (body) => (await fetch('/api/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
      { username: 'Người_Tải', password: 'correct horse battery' },
    );
    expect(login).toBe(200);
    await page.goto(`${harness.server.url}/account`);
    await page.waitForSelector('[data-signed-in-as]');
    const button = page.locator('[data-export-download]');
    expect(await button.textContent()).toContain('Tải về dữ liệu của tôi');
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    const { name, file } = await downloaded(page);
    const day = new Date().toISOString().slice(0, 10);
    expect(name).toBe(`oanquan-Người_Tải-${day}.json`);
    await page.waitForSelector(`[data-export] [role="status"]:text-is("Đã tải về ${name}.")`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    const me = await read<MeResponse>(page, '/api/me');
    const profile = await read<PlayerProfile>(page, `/api/players/${me.player.id}`);
    expect(file.profile).toMatchObject({
      id: me.player.id,
      name: me.player.name,
      username: 'Người_Tải',
      account: true,
      rating: { rating: profile.rating.rating, deviation: profile.rating.deviation, volatility: profile.rating.volatility },
      settings: { challengesFrom: 'everyone' },
    });
    // The session the game was played with, and this browser's, which is the one asking.
    expect(file.sessions).toHaveLength(2);
    expect(file.sessions.filter((session) => session.current)).toHaveLength(1);

    const record = await read<MatchRecord>(page, `/api/matches/${game.matchId}`);
    expect(file.games).toHaveLength(1);
    const [played] = file.games;
    expect(played).toMatchObject({ id: game.matchId, room: game.roomCode, seat: 0, result: record.result, players: record.players, opener: record.opener.map(({ at: _, ...round }) => round) });
    expect(played!.moves).toEqual(record.moves.map(({ clockStartsAt: _, ...move }) => move));
    expect(played!.moves).toHaveLength(game.moves.length);
    expect(errors).toEqual([]);
  });

  it('offers a guest the same, in English', { timeout: 60_000 }, async () => {
    const { page, errors } = await newPlayer(harness.browser, { ...phone, acceptDownloads: true });
    await page.goto(`${harness.server.url}/account`);
    await page.waitForSelector('[data-keep-form]');
    expect(await page.textContent('[data-export-download]')).toContain('Download my data');
    const me = await read<MeResponse>(page, '/api/me');
    const { name, file } = await downloaded(page);
    expect(name).toMatch(new RegExp(`^oanquan-guest-${me.player.id.slice(0, 8)}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    expect(file.profile).toMatchObject({ id: me.player.id, name: me.player.name, account: false, stored: false });
    expect(file.games).toEqual([]);
    await page.waitForSelector(`[data-export] [role="status"]:text-is("Downloaded ${name}.")`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    // Three an hour (RATE_LIMIT_EXPORTS_PER_HOUR): the fourth is refused on the page, not as a failed download.
    await downloaded(page);
    await downloaded(page);
    await page.click('[data-export-download]');
    const refusal = await page.waitForSelector('[data-export-error="RATE_LIMITED"]');
    expect(await refusal.textContent()).toMatch(/^Too many attempts from you or your network; try again in \d+ min\.$/);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
});
