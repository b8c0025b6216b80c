import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlayer, startHarness, type Harness, type Player } from './support/harness.js';
import { openRoom, playOpener } from './support/room-flow.js';

/** Records every CSP violation the player's pages report, from before their first script runs, and the console's errors. */
async function watchPolicy(player: Player): Promise<{ consoleErrors: string[] }> {
  await player.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const consoleErrors: string[] = [];
  player.page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  return { consoleErrors };
}

async function violationsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

describe('the content security policy in Chromium', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('lets the app boot, hydrate, call the API and play over its socket without a single violation', async () => {
    const a = await newPlayer(harness.browser);
    const b = await newPlayer(harness.browser);
    const watchA = await watchPolicy(a);
    const watchB = await watchPolicy(b);

    const response = await a.page.goto(harness.server.url);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await a.page.waitForSelector('[data-me] [data-my-name]');
    await a.page.click('[data-lang="vi"]');
    expect((await a.page.textContent('[data-play]'))?.trim()).toBe('Chơi ngay');
    await a.page.click('[data-lang="en"]');

    // A room over REST, both players joined over Socket.IO, the opener played to the board.
    await openRoom(harness.server.url, a, b);
    await playOpener(a, b);

    expect(await violationsOf(a.page)).toEqual([]);
    expect(await violationsOf(b.page)).toEqual([]);
    expect([...watchA.consoleErrors, ...watchB.consoleErrors].filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('refuses to be shown inside another site’s frame', async () => {
    const { page, context } = await newPlayer(harness.browser);
    await page.route('http://framer.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>framer</title><iframe src="${harness.server.url}/" width="800" height="600"></iframe>` }),
    );
    // goto waits for the load event, which waits for the frame.
    await page.goto('http://framer.test/');
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    // Chromium replaces a frame whose ancestors the page's policy refuses with its own error page.
    expect(frame!.url()).toMatch(/^chrome-error:/);
    expect(await frame!.$('[data-play]')).toBeNull();
    await context.close();
  });
});
