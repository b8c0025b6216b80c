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
