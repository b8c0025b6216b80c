import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axePath, seriousFindings } from './support/axe.js';
import { newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, startLiveGame, type LiveGame } from './support/live-game.js';

/** The page's background in each theme: the proof that the theme checked is the one shown. */
const PAPER = { light: 'rgb(246, 239, 227)', dark: 'rgb(26, 20, 15)' } as const;

describe('every page, for everyone: axe-core in Chromium', () => {
  let harness: Harness;
  let live: LiveGame;
  let arenaCode: string;
  let finishedMatch: string;
  beforeAll(async () => {
    harness = await startHarness();
    const { url } = harness.server;
    finishedMatch = (await playFinishedGame(url, 5)).matchId;
    live = await startLiveGame(url, 3, null, ['axe_seat_0', 'axe_seat_1']);
    // Each seat's first move made: a game waiting for one is aborted after FIRST_MOVE_TIMEOUT_MS (30 s), which the
    // pages audited before the room's took on a busy machine. Seat 0 is to move again.
    await live.play();
    await live.play();
    const response = await fetch(url + '/api/arenas', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${live.players[1].token}` },
      body: JSON.stringify({ pool: '3+2', startsAt: new Date().toISOString(), minutes: 10 }),
    });
    arenaCode = ((await response.json()) as { code: string }).code;
  });
  afterAll(async () => {
    live?.close();
    await harness?.close();
  });

  it('finds nothing serious or critical on any page, light or dark, at 320 and 1280 px', { timeout: 240_000 }, async () => {
    // One browser for every page, as seat 0 of a game in play (a player sees the most controls); no animation is caught half-way.
    const player = await newPlayer(harness.browser, { reducedMotion: 'reduce' });
    await player.context.addInitScript((token) => localStorage.setItem('oanquan.token', token), live.players[0].token);
    await player.context.addInitScript({ path: axePath });
    const { page } = player;
    const pages: [string, string][] = [
      ['/', '[data-me] [data-my-name]'],
      ['/rules', '#rated'],
      ['/puzzles', 'main h1'],
      ['/leaderboard', 'main h1'],
      [`/p/${live.players[0].player.id}`, '[data-profile-name]'],
      [`/r/${live.roomCode}`, '[data-room][data-status="playing"] [data-board] [data-legal]'],
      [`/m/${finishedMatch}?move=3`, '[data-replay][data-ply="3"][data-step="rest"] [data-board]'],
      [`/a/${arenaCode}`, '[data-arena][data-phase="running"] [data-arena-time]'],
      ['/settings', '[data-settings-page][data-ready]'],
      ['/account', '[data-signed-in-as]'],
    ];
    const findings: string[] = [];
    for (const [path, ready] of pages) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(harness.server.url + path);
      await page.waitForSelector(ready);
      // Whatever loads after the page's first content (lists, ratings) has come or shows it could not.
      await page.waitForFunction(() => !document.querySelector('main [role="status"][aria-busy="true"]'));
      for (const width of [320, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          const paper = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          if (paper !== PAPER[colorScheme]) findings.push(`${path} ${width}px ${colorScheme}: the page is not in its ${colorScheme} theme (${paper})`);
          for (const finding of await seriousFindings(page)) findings.push(`${path} ${width}px ${colorScheme}: ${finding.impact} ${finding.id} at ${finding.targets.join(', ')}`);
        }
      }
    }
    expect(findings).toEqual([]);
    expect(player.errors).toEqual([]);
    await player.context.close();
  });
});
