import type { MatchRecord, RoomResponse } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axePath, seriousFindings } from './support/axe.js';
import { horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';
import { openRoom, playOpener, playPly } from './support/room-flow.js';

const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true };
const password = 'correct horse battery';
const PLIES = 6;

/** A same-origin GET as the page's own person (its session cookie). */
const read = <T,>(page: Page, path: string) => page.evaluate(async (url) => (await (await fetch(url)).json()) as T, path);

/** Every button of the close flow can be pressed by a finger. */
async function smallestTarget(page: Page): Promise<number> {
  const boxes = await page.locator('[data-close-account] button, [data-close-account] label.confirm').evaluateAll((nodes) =>
    nodes.map((node) => node.getBoundingClientRect()).map((box) => Math.min(box.width, box.height)),
  );
  return Math.min(...boxes);
}

describe('closing an account, in Chromium, with a game played before', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('closes from a 320 px phone in Vietnamese, and the opponent keeps the whole game under “deleted player”', { timeout: 180_000 }, async () => {
    const url = harness.server.url;
    const leaver = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    await leaver.context.addInitScript({ path: axePath });
    const opponent = await newPlayer(harness.browser);
    const stamp = String(Date.now() % 100_000);
    for (const [player, username] of [[leaver, `roi_di_${stamp}`], [opponent, `o_lai_${stamp}`]] as const) {
      await player.page.goto(url);
      await player.page.waitForSelector('[data-my-name]');
      await keepAccount(player.page, username, password);
      // The page starts again as the account, its socket with it.
      await player.page.goto(url);
      await player.page.waitForSelector(`[data-my-name]:text-is("${username}")`);
    }
    const opponentId = (await read<{ player: { id: string } }>(opponent.page, '/api/me')).player.id;
    const leaverId = (await read<{ player: { id: string } }>(leaver.page, '/api/me')).player.id;

    // Two people play: the leaver made the room and moves first; after six plies the opponent resigns.
    const link = await openRoom(url, leaver, opponent);
    await playOpener(leaver, opponent);
    for (let ply = 0; ply < PLIES; ply++) await playPly([leaver, opponent], ply);
    await opponent.page.waitForSelector(`[data-board][data-ply="${PLIES}"]`);
    await opponent.page.click('[data-action="resign"]');
    await opponent.page.click('[data-action="confirm"]');
    const room = await read<RoomResponse>(opponent.page, `/api/rooms/${link.split('/r/')[1]}`);
    const before = await read<MatchRecord>(opponent.page, `/api/matches/${room.matchId}`);
    expect(before.moves).toHaveLength(PLIES);
    expect(before.result?.reason).toBe('resign');

    // The leaver reads what closing does, then closes on their phone.
    const page = leaver.page;
    await page.goto(`${url}/account`);
    await page.waitForSelector('[data-close-account]');
    const explained = await page.textContent('[data-close-account]');
    expect(explained).toContain('Đóng tài khoản');
    expect(explained).toContain('người chơi đã xoá');
    await page.click('[data-close-open]');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('close-password');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await smallestTarget(page)).toBeGreaterThanOrEqual(44);

    // Unconfirmed, nothing is sent; a wrong password is refused beside its field and changes nothing.
    await page.fill('[data-close-password]', 'not my password');
    await page.click('[data-close-submit]');
    expect(await page.locator('[data-close-error]').count()).toBe(0);
    await page.check('[data-close-confirm]');
    await page.click('[data-close-submit]');
    await page.waitForSelector('[data-close-error="BAD_CREDENTIALS"]');
    expect(await page.textContent('[data-close-error]')).toBe('Sai mật khẩu.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('close-password');
    expect(await page.getAttribute('[data-close-password]', 'aria-invalid')).toBe('true');
    expect(await seriousFindings(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect((await read<{ username: string | null }>(page, '/api/me')).username).toBe(`roi_di_${stamp}`);

    await page.fill('[data-close-password]', password);
    await page.click('[data-close-submit]');
    await page.waitForSelector('[data-account-outcome]:text-is("Tài khoản đã đóng. Giờ bạn là khách.")');
    await page.waitForSelector('[data-keep-form]');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-account-outcome'))).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const now = await read<{ player: { id: string }; username: string | null }>(page, '/api/me');
    expect(now.username).toBeNull();
    expect(now.player.id).not.toBe(leaverId);

    // Their profile is gone.
    await page.goto(`${url}/p/${leaverId}`);
    await page.waitForSelector('[data-error-status="404"][data-error-code="ACCOUNT_CLOSED"]');
    expect(await page.textContent('[data-error-code]')).toContain('Tài khoản này đã đóng.');

    // The opponent's history and replay keep the game, every move, under "deleted player".
    const other = opponent.page;
    await other.goto(`${url}/p/${opponentId}`);
    const item = other.locator(`[data-match-item="${room.matchId}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain('deleted player');
    expect(await item.textContent()).toContain(`${PLIES} moves`);
    await other.goto(`${url}/m/${room.matchId}`);
    await other.waitForSelector(`[data-replay="${room.matchId}"] h1:has-text("deleted player")`);
    await other.click('[data-action="last"]');
    await other.waitForSelector(`[data-replay][data-ply="${PLIES}"]`);
    const after = await read<MatchRecord>(other, `/api/matches/${room.matchId}`);
    expect(after.moves).toEqual(before.moves);
    expect(after.result).toEqual(before.result);
    expect(after.players[0]?.name).toBe('deleted player');

    // In Vietnamese, the name is said in Vietnamese.
    await page.goto(`${url}/m/${room.matchId}`);
    await page.waitForSelector(`[data-replay] h1:has-text("người chơi đã xoá")`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect([...leaver.errors, ...opponent.errors]).toEqual([]);
  });
});
