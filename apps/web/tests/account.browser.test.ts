import type { MeResponse, SessionResponse } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, playRatedGame } from './support/live-game.js';
import { pairInQueue } from './support/room-flow.js';

const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true };

/** Who the page's cookie names, asked the way the site asks. */
const me = (page: Page) => page.evaluate(async () => (await (await fetch('/api/me')).json()) as MeResponse);

describe('accounts in Chromium on a 320 px phone', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('keeps a guest’s account, signs in on a second browser, changes the password and signs out everywhere, in Vietnamese and English', { timeout: 120_000 }, async () => {
    const first = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    await first.page.goto(harness.server.url);
    await first.page.waitForSelector('[data-my-name]');
    const guest = await me(first.page);
    expect(guest.username).toBeNull();
    // The session is in an httpOnly cookie: no script on the page sees it, and nothing is kept in localStorage.
    expect(await first.page.evaluate(() => document.cookie)).not.toContain('oq_session');
    expect(await first.page.evaluate(() => localStorage.getItem('oanquan.token'))).toBeNull();
    const [cookie] = (await first.context.cookies()).filter((c) => c.name === 'oq_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    await first.page.click('[data-account-link]');
    await first.page.waitForSelector('[data-keep-form]');
    expect(await first.page.textContent('[data-keep-form] h2')).toBe('Giữ tài khoản của tôi');
    expect(await horizontalOverflow(first.page)).toBeLessThanOrEqual(0);
    await first.page.fill('[data-keep-username]', 'Bà_Tư');
    await first.page.fill('[data-keep-password]', 'hoa sen trắng');
    await first.page.click('[data-keep-submit]');
    await first.page.waitForSelector('[data-signed-in-as]');
    expect(await first.page.textContent('[data-account-outcome]')).toContain('Đã giữ tài khoản. Chào mừng Bà_Tư!');
    expect(await me(first.page)).toEqual({ player: { id: guest.player.id, name: 'Bà_Tư' }, username: 'Bà_Tư' });
    expect(await horizontalOverflow(first.page)).toBeLessThanOrEqual(0);

    // A second browser, in English: a new guest until it signs in as the same player.
    const second = await newPlayer(harness.browser, { ...phone, locale: 'en-GB' });
    await second.page.goto(`${harness.server.url}/account`);
    await second.page.waitForSelector('[data-sign-in-form]');
    expect((await me(second.page)).player.id).not.toBe(guest.player.id);
    await second.page.fill('[data-sign-in-username]', 'bà_tư');
    await second.page.fill('[data-sign-in-password]', 'wrong password');
    await second.page.click('[data-sign-in-submit]');
    await second.page.waitForSelector('[data-form-error="sign-in"]:text-is("Wrong username or password.")');
    await second.page.fill('[data-sign-in-password]', 'hoa sen trắng');
    await second.page.click('[data-sign-in-submit]');
    await second.page.waitForSelector('[data-signed-in-as]');
    expect(await second.page.textContent('[data-account-outcome]')).toBe('Signed in as Bà_Tư.');
    expect((await me(second.page)).player.id).toBe(guest.player.id);
    await second.page.goto(harness.server.url);
    await second.page.waitForSelector('[data-me-name]:text-is("Bà_Tư")');
    expect(await horizontalOverflow(second.page)).toBeLessThanOrEqual(0);

    // A new password on the second browser signs the first one out.
    await second.page.goto(`${harness.server.url}/account`);
    await second.page.fill('[data-current-password]', 'hoa sen trắng');
    await second.page.fill('[data-new-password]', 'mật khẩu mới');
    await second.page.click('[data-password-submit]');
    await second.page.waitForSelector('[data-account-outcome]:text-is("Password changed. Your other devices are signed out.")');
    await first.page.reload();
    await first.page.waitForSelector('[data-keep-form]');
    expect((await me(first.page)).player.id).not.toBe(guest.player.id);

    // The first browser signs in with the new password, then signs out everywhere: both become guests.
    await first.page.fill('[data-sign-in-username]', 'Bà_Tư');
    await first.page.fill('[data-sign-in-password]', 'mật khẩu mới');
    await first.page.click('[data-sign-in-submit]');
    await first.page.waitForSelector('[data-sign-out-everywhere]');
    expect((await me(first.page)).player.id).toBe(guest.player.id);
    await first.page.click('[data-sign-out-everywhere]');
    await first.page.waitForSelector('[data-account-outcome]:text-is("Đã đăng xuất. Giờ bạn là khách.")');
    await first.page.waitForSelector('[data-keep-form]');
    await second.page.reload();
    await second.page.waitForSelector('[data-keep-form]');
    for (const { page } of [first, second]) expect(await me(page)).toMatchObject({ username: null });
    expect((await me(second.page)).player.id).not.toBe(guest.player.id);

    expect([...first.errors, ...second.errors]).toEqual([]);
    await Promise.all([first.context.close(), second.context.close()]);
  });

  it('offers an account the choice of a casual game, and tells a guest their games are casual; the two then meet', async () => {
    const account = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    const guest = await newPlayer(harness.browser, { ...phone, locale: 'en-GB' });
    await account.page.goto(harness.server.url);
    // The guest's note is in the page as served; the guest itself exists once the card names it.
    await account.page.waitForSelector('[data-casual-hint]');
    await account.page.waitForSelector('[data-me] [data-my-name]');
    await keepAccount(account.page, 'casual_choice');
    await account.page.reload();
    await account.page.waitForSelector('[data-rated-choice] input:checked');
    // From now on the page is served as an account's, before it asks who this is: nothing moves when the answer comes.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await account.page.route('**/api/me', async (route) => {
      await held;
      await route.continue();
    });
    await account.page.reload();
    await account.page.waitForSelector('[data-play]:not([disabled])');
    const boxes = () => account.page.$$eval('[data-play], [data-rated-choice]', (els) => els.map((el) => JSON.stringify(el.getBoundingClientRect())));
    const before = await boxes();
    expect(before).toHaveLength(2);
    expect(await account.page.$('[data-my-name]')).toBeNull();
    answer();
    await account.page.waitForSelector('[data-me] [data-my-name]');
    expect(await boxes()).toEqual(before);
    await account.page.unroute('**/api/me');
    expect(await account.page.$('[data-casual-hint]')).toBeNull();
    expect((await account.page.textContent('[data-rated-choice]'))?.trim()).toBe('Ván tính điểm');
    await account.page.uncheck('[data-rated-choice] input');
    await guest.page.goto(harness.server.url);
    await guest.page.waitForSelector('[data-casual-hint]');
    expect(await guest.page.$('[data-rated-choice]')).toBeNull();
    expect(await horizontalOverflow(account.page)).toBeLessThanOrEqual(0);
    expect(await horizontalOverflow(guest.page)).toBeLessThanOrEqual(0);
    const link = await pairInQueue([account, guest], '10+5');
    expect(account.page.url()).toBe(link);
    expect(guest.page.url()).toBe(link);
    await account.page.waitForSelector('[data-room][data-rated="false"]');
    expect([...account.errors, ...guest.errors]).toEqual([]);
    await Promise.all([account.context.close(), guest.context.close()]);
  });

  it('trades a guest token left in localStorage for the cookie on the next visit, then removes it', async () => {
    const made = await fetch(`${harness.server.url}/api/session`, { method: 'POST' });
    const old = (await made.json()) as SessionResponse;
    const player = await newPlayer(harness.browser, phone);
    await player.context.addInitScript((token) => {
      if (!sessionStorage.getItem('seeded')) localStorage.setItem('oanquan.token', token);
      sessionStorage.setItem('seeded', '1');
    }, old.token);
    await player.page.goto(harness.server.url);
    await player.page.waitForSelector(`[data-my-name]:text-is("${old.player.name}")`);
    expect(await player.page.evaluate(() => localStorage.getItem('oanquan.token'))).toBeNull();
    await player.page.reload();
    await player.page.waitForSelector(`[data-my-name]:text-is("${old.player.name}")`);
    expect((await me(player.page)).player.id).toBe(old.player.id);
    expect(player.errors).toEqual([]);
    await player.context.close();
  });

  it('shows a profile worth visiting on a phone: record by first move, rating history, filters and a link to share, in both languages', { timeout: 120_000 }, async () => {
    const game = await playFinishedGame(harness.server.url, 7);
    const id = game.players[0].player.id;
    for (const locale of ['vi-VN', 'en-GB']) {
      const visitor = await newPlayer(harness.browser, { ...phone, locale });
      await visitor.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.server.url });
      await visitor.page.goto(`${harness.server.url}/p/${id}`);
      await visitor.page.waitForSelector('[data-by-first]');
      const cells = await visitor.page.$$eval('[data-by-first] tbody td', (tds) => tds.map((td) => Number(td.textContent)));
      expect(cells.reduce((a, b) => a + b, 0)).toBe(1);
      // A friend room is casual: no rated game, so no graph yet.
      await visitor.page.waitForSelector('[data-history-empty]');
      expect(await visitor.page.getAttribute('[data-profile-kind]', 'data-profile-kind')).toBe('guest');
      await visitor.page.waitForSelector('[data-feed="finished"] [data-match-item]');
      await visitor.page.click('[data-filter="rated"]');
      await visitor.page.waitForSelector('[data-feed="finished"] [data-match-item]', { state: 'detached' });
      await visitor.page.click('[data-filter="casual"]');
      await visitor.page.waitForSelector('[data-feed="finished"] [data-match-item]');
      expect(await horizontalOverflow(visitor.page)).toBeLessThanOrEqual(0);
      await visitor.page.click('[data-share]');
      await visitor.page.waitForSelector('[data-copied]');
      expect(await visitor.page.evaluate(() => navigator.clipboard.readText())).toBe(`${harness.server.url}/p/${id}`);
      expect(await visitor.page.textContent('[data-copied]')).toBe(locale === 'vi-VN' ? 'Đã sao chép liên kết.' : 'Link copied.');
      expect(visitor.errors).toEqual([]);
      await visitor.context.close();
    }

    // After a rated game the winner's history has its first point, above the start.
    const rated = await playRatedGame(harness.server.url, 11);
    const visitor = await newPlayer(harness.browser, { ...phone, locale: 'en-GB' });
    await visitor.page.goto(`${harness.server.url}/p/${rated.winner.player.id}`);
    await visitor.page.waitForSelector('[data-rating-graph="1"] circle');
    expect(await visitor.page.getAttribute('[data-profile-kind]', 'data-profile-kind')).toBe('account');
    expect(await visitor.page.getAttribute('[data-rating-graph] svg', 'aria-label')).toMatch(/^Rating after each rated game, from /);
    // One game draws a line from the start, 1500, to where it led, under dates written as on every page.
    expect(await visitor.page.locator('[data-rating-graph] circle').count()).toBe(2);
    const caption = await visitor.page.$$eval('[data-rating-graph] figcaption span', (spans) => spans.map((span) => span.textContent));
    expect(caption[0]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    // The axis names round ratings at their height, the start among them, highest at the top.
    // Each tick's height is read from the graph's own top in one look at the page: the challenge card above the graph
    // appears once the visitor's session is known, and moved the whole graph down between two separate reads once in CI.
    const ticks = await visitor.page.$eval('[data-rating-graph]', (figure) => {
      const graph = figure.querySelector('svg')!.getBoundingClientRect();
      return [...figure.querySelectorAll('[data-rating-tick]')].map((span) => ({
        value: Number(span.textContent),
        fromTop: span.getBoundingClientRect().top - graph.top,
        graphHeight: graph.height,
      }));
    });
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.map((tick) => tick.value)).toContain(1500);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.fromTop).toBeLessThan(ticks[i - 1]!.fromTop);
    for (const { fromTop, graphHeight } of ticks) expect(fromTop >= -8 && fromTop <= graphHeight).toBe(true);
    expect(Number(await visitor.page.textContent('[data-rating]'))).toBeGreaterThan(1500);
    expect(await visitor.page.$$eval('[data-by-first-row="first"] td', (tds) => tds.map((td) => td.textContent))).toEqual(['1', '0', '0']);
    await visitor.page.click('[data-filter="win"]');
    await visitor.page.waitForSelector(`[data-match-item="${rated.matchId}"]`);
    await visitor.page.click('[data-filter="loss"]');
    await visitor.page.waitForSelector(`[data-match-item="${rated.matchId}"]`, { state: 'detached' });
    expect(await horizontalOverflow(visitor.page)).toBeLessThanOrEqual(0);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});
