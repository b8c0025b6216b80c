import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Player } from './harness.js';

/** Player A creates a room from the home page (default: classic, no clock); B opens its link. Returns the link. */
export async function openRoom(url: string, a: Player, b: Player, setup?: (page: Page) => Promise<void>): Promise<string> {
  await a.page.goto(url);
  await a.page.waitForSelector('[data-me] [data-my-name]');
  await setup?.(a.page);
  await a.page.click('[data-create]');
  await a.page.waitForSelector('[data-waiting]');
  const link = await a.page.inputValue('[data-room-link]');
  expect(link).toMatch(/\/r\/[A-Za-z0-9]{8,16}$/);
  await b.page.goto(link);
  await Promise.all([a.page.waitForSelector('[data-opener]'), b.page.waitForSelector('[data-opener]')]);
  return link;
}

/** Rock beats scissors: A (seat 0, the creator) wins the toss and moves first. */
export async function playOpener(a: Player, b: Player): Promise<void> {
  await a.page.click('[data-hand="rock"]');
  await b.page.click('[data-hand="scissors"]');
  for (const page of [a.page, b.page]) {
    await page.waitForSelector('[data-board][data-ply="0"]');
    await page.waitForSelector('[data-opener-winner="0"]');
  }
}

export async function waitForPly(page: Page, ply: number): Promise<void> {
  await page.waitForSelector(`[data-board][data-ply="${ply}"]:not([data-animating])`);
}

/** Whoever is to move plays their first legal square, sowing the first way offered. */
export async function playPly(players: Player[], ply: number): Promise<void> {
  for (const { page } of players) await page.waitForSelector(`[data-board][data-ply="${ply}"]:not([data-animating])`);
  const toMove = await players[0]!.page.getAttribute('[data-room]', 'data-to-move');
  const mover = (await Promise.all(players.map(async (p) => ((await p.page.getAttribute('[data-room]', 'data-seat')) === toMove ? p : null)))).find(Boolean)!;
  await mover.page.click('[data-board] [data-square][data-legal]');
  await mover.page.click('[data-board] [data-dir]');
}

const roomPath = /\/r\/[A-Za-z0-9]+$/;

/**
 * The public queue's steps, each player on the home page in turn: pick
 * `pool`, press Play, see the queue take it. Resolves once the queue has put
 * them all in one room, and answers its link.
 */
export async function pairInQueue(players: Player[], pool = '3+2'): Promise<string> {
  for (const { page } of players) {
    await page.click(`[data-pool="${pool}"]`);
    await page.click('[data-play]:not([disabled])');
    await page.waitForSelector('[data-queue="searching"], [data-queue="matched"], [data-room]');
  }
  await Promise.all(players.map(({ page }) => page.waitForURL(roomPath))).catch(async (error: Error) => {
    // Where each page was left, so a pairing that never came says which side it stopped on.
    // And who each page is to the server, and what its queue panel says (rated or casual, how many wait in the pool).
    const where = await Promise.all(
      players.map(async ({ page }) => {
        const queue = await page.getAttribute('[data-queue]', 'data-queue', { timeout: 1000 }).catch(() => 'none');
        const me = await page.evaluate(async () => JSON.stringify(await (await fetch('/api/me')).json())).catch((e: Error) => e.message);
        const panel = await page.textContent('[data-queue]', { timeout: 1000 }).catch(() => '');
        return `${page.url()} queue=${queue} me=${me} panel=${panel?.replace(/\s+/g, ' ').trim()}`;
      }),
    );
    throw new Error(`the queue did not pair them: ${where.join('; ')} (${error.message.split('\n')[0]})`);
  });
  const links = players.map(({ page }) => page.url());
  expect(new Set(links).size).toBe(1);
  return links[0]!;
}
