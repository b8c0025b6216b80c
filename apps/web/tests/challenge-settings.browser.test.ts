import type { MeResponse } from '@oanquan/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, keepAccount, newPlayer, startHarness, type Harness } from './support/harness.js';

const phone = { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true };
const myId = async (page: Page) => (await page.evaluate(async () => (await (await fetch('/api/me')).json()) as MeResponse)).player.id;

describe('who may challenge you, and following, in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('an account takes challenges from the players it follows only; a guest is told so in words, a followed account gets through', { timeout: 180_000 }, async () => {
    const { url } = harness.server;
    const target = await newPlayer(harness.browser, { locale: 'en-GB' });
    const friend = await newPlayer(harness.browser, { ...phone, locale: 'en-GB' });
    const guest = await newPlayer(harness.browser, { ...phone, locale: 'vi-VN' });
    for (const p of [target, friend, guest]) await p.page.goto(url);
    for (const p of [target, friend, guest]) await p.page.waitForSelector('[data-my-name]');
    await keepAccount(target.page, `target_${Date.now() % 1e6}`);
    await keepAccount(friend.page, `friend_${Date.now() % 1e6}`);
    const [targetId, friendId] = [await myId(target.page), await myId(friend.page)];

    // The target chooses, in the account page: saved at once, and kept by the server.
    await target.page.goto(`${url}/account`);
    await target.page.waitForSelector('[data-challenges-from="everyone"] [data-challenges-from-choice="everyone"]:checked');
    await target.page.check('[data-challenges-from-choice="following"]');
    await target.page.waitForSelector('[data-challenges-from="following"] [role="status"]:text-is("Saved.")');
    expect(await target.page.evaluate(async () => (await (await fetch('/api/settings')).json()) as unknown)).toEqual({ challengesFrom: 'following' });

    // The target follows the friend from the friend's profile: one way, the friend does not follow back.
    await target.page.goto(`${url}/p/${friendId}`);
    await target.page.click('[data-follow]:text-is("Follow")');
    await target.page.waitForSelector('[data-follow][aria-pressed="true"]:text-is("Unfollow")');
    await friend.page.goto(`${url}/p/${targetId}`);
    await friend.page.waitForSelector('[data-follow][aria-pressed="false"]:text-is("Follow")');

    // The guest is refused, in Vietnamese, beside the button; nothing reaches the target.
    await guest.page.goto(`${url}/p/${targetId}`);
    await guest.page.tap('[data-challenge-submit="direct"]');
    await guest.page.waitForSelector('[data-form-error="direct"]');
    expect(await guest.page.textContent('[data-form-error="direct"]')).toBe('Lúc này người này không nhận lời thách từ bạn.');
    expect(await horizontalOverflow(guest.page)).toBeLessThanOrEqual(0);

    // A guest (whose row the refused challenge made) is not followed: their profile has no such button.
    await target.page.goto(`${url}/p/${await myId(guest.page)}`);
    await target.page.waitForSelector('[data-challenge-form="direct"]');
    expect(await target.page.$('[data-follow]')).toBeNull();

    // The followed friend's challenge reaches the target, the first and only one it sees.
    await friend.page.tap('[data-challenge-submit="direct"]');
    await friend.page.waitForSelector('[data-outgoing-challenge]');
    await target.page.waitForSelector('[data-incoming-challenge] [data-accept-challenge]');
    expect(await target.page.$$eval('[data-incoming-challenge]', (rows) => rows.length)).toBe(1);
    for (const p of [target, friend, guest]) expect(p.errors).toEqual([]);
  });
});
