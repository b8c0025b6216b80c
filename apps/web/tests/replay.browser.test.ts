import { newGame, parseRecord, play, replay, type PlyEvent, type Position } from '@oanquan/rules';
import { SESSION_COOKIE } from '@oanquan/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardCounts, downloadedText, newPlayer, startHarness, type Harness } from './support/harness.js';
import { playFinishedGame, type FinishedGame } from './support/live-game.js';
import { vi } from '../src/lib/i18n/vi.js';

/** What the board must show after each single stone of a ply, straight from the rules' events. */
function stoneByStone(before: Position, events: readonly PlyEvent[]): number[][] {
  const squares = [...before.squares];
  const shown: number[][] = [];
  for (const event of events) {
    if (event.type === 'end') continue;
    if (event.type === 'drop') squares[event.square]! += 1;
    else if (event.type === 'refill') for (const square of event.squares) squares[square] = 1;
    else squares[event.square] = 0;
    shown.push([...squares]);
  }
  return shown;
}

describe('the replay viewer in Chromium', () => {
  let harness: Harness;
  let game: FinishedGame;
  let positions: readonly Position[];
  let stones: number[][][];
  beforeAll(async () => {
    harness = await startHarness();
    // Seed 43 plays 18 plies with captures and two refills: every kind of event is stepped through.
    game = await playFinishedGame(harness.server.url, 43);
    const replayed = replay({ rules: game.rules, first: 0 }, game.moves);
    if (!replayed.ok) throw new Error('the finished game does not replay');
    positions = replayed.positions;
    let state = newGame({ rules: game.rules, first: 0 });
    stones = game.moves.map((move) => {
      const result = play(state, move);
      if (!result.ok) throw new Error(result.code);
      const shown = stoneByStone(state.position, result.events);
      state = result.state;
      return shown;
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('steps through every move and every single stone, forward and back, as the rules say', { timeout: 180_000 }, async () => {
    const { page, errors, context } = await newPlayer(harness.browser);
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=0`);
    await page.waitForSelector('[data-replay][data-ply="0"][data-step="rest"] [data-board]');
    expect(await boardCounts(page)).toEqual(positions[0]!.squares);

    const expectShown = async (ply: number, step: number | null, counts: readonly number[]) => {
      await page.waitForSelector(`[data-replay][data-ply="${ply}"][data-step="${step ?? 'rest'}"]`);
      expect({ ply, step, counts: await boardCounts(page) }).toEqual({ ply, step, counts });
    };

    // Forward, one stone at a time: every stone of a ply, then the rest after it.
    for (let ply = 0; ply < game.moves.length; ply++) {
      const shown = stones[ply]!;
      for (let step = 0; step < shown.length - 1; step++) {
        await page.click('[data-action="next-stone"]');
        await expectShown(ply, step, shown[step]!);
      }
      await page.click('[data-action="next-stone"]');
      await expectShown(ply + 1, null, positions[ply + 1]!.squares);
    }
    await page.waitForSelector('[data-result]');

    // Back, one stone at a time, with the keyboard.
    for (let ply = game.moves.length; ply > 0; ply--) {
      const shown = stones[ply - 1]!;
      for (let step = shown.length - 2; step >= 0; step--) {
        await page.keyboard.press('Shift+ArrowLeft');
        await expectShown(ply - 1, step, shown[step]!);
      }
      await page.keyboard.press('Shift+ArrowLeft');
      await expectShown(ply - 1, null, positions[ply - 1]!.squares);
    }

    // Whole moves, forward and back.
    for (let ply = 1; ply <= game.moves.length; ply++) {
      await page.click('[data-action="next-move"]');
      await expectShown(ply, null, positions[ply]!.squares);
    }
    for (let ply = game.moves.length - 1; ply >= 0; ply--) {
      await page.click('[data-action="prev-move"]');
      await expectShown(ply, null, positions[ply]!.squares);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens at the move in its address, keeps the address current and autoplays', async () => {
    const { page, errors, context } = await newPlayer(harness.browser, { speed: 'fast' });
    const at = Math.min(7, game.moves.length);
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=${at}`);
    await page.waitForSelector(`[data-replay][data-ply="${at}"][data-step="rest"]`);
    expect(await boardCounts(page)).toEqual(positions[at]!.squares);
    expect(await page.getAttribute(`.moves [data-ply="${at}"]`, 'aria-current')).toBe('true');

    await page.click('[data-action="next-move"]');
    await page.waitForURL(new RegExp(`move=${at + 1}$`));
    await page.click('.moves button[data-ply="2"]');
    await page.waitForURL(/move=2$/);
    expect(await boardCounts(page)).toEqual(positions[2]!.squares);

    await page.selectOption('[data-autoplay-speed]', '4');
    await page.click('[data-action="play"]');
    await page.waitForSelector('[data-replay][data-ply="3"]');
    await page.click('[data-action="play"]');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('downloads the record as the page shows it, in the reader\'s language, and it reads back as the same game', async () => {
    const { page, errors, context } = await newPlayer(harness.browser, { locale: 'vi-VN', viewport: { width: 320, height: 640 } });
    await page.goto(`${harness.server.url}/m/${game.matchId}`);
    await page.waitForSelector('[data-replay] .moves [data-move-name]');
    const logged = await page.$$eval('.moves [data-ply]', (rows) =>
      rows.map((row) => `${row.querySelector('.n')!.textContent!.trim()} ${row.querySelector('[data-move-name]')!.textContent!.trim()}`),
    );
    const height = await page.$eval('[data-download]', (link) => link.getBoundingClientRect().height);
    expect(height).toBeGreaterThanOrEqual(44);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-download]')]);
    expect(download.suggestedFilename()).toBe(`oanquan-${game.matchId.slice(0, 8)}.txt`);
    const text = await downloadedText(download);
    // The moves as the game log lists them, numbered by ply with the same names, after the headers.
    expect(text.trimEnd().split('\n\n')[1]!.split(/\s+(?=\d+\. )/)).toEqual(logged);
    expect(logged).toHaveLength(game.moves.length);
    const { reason, score } = game.final.position.result!;
    expect(text).toContain(`[Score "${score[0]}-${score[1]}"]`);
    expect(text).toContain(`[Ending "${vi[`reason.${reason}`]}"]`);
    const parsed = parseRecord(text);
    expect(parsed.ok && parsed.record.moves).toEqual(game.moves);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('counts the moves in a profile\'s history as the game log numbers them', async () => {
    const { page, errors, context } = await newPlayer(harness.browser, { locale: 'vi-VN', viewport: { width: 320, height: 640 } });
    await page.goto(`${harness.server.url}/p/${game.players[0].player.id}`);
    const item = page.locator(`[data-match-item="${game.matchId}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain(`· ${game.moves.length} nước ·`);
    await item.locator('a').click();
    await page.waitForSelector('[data-replay] .moves [data-move-name]');
    expect(await page.locator('.moves [data-ply]').last().getAttribute('data-ply')).toBe(String(game.moves.length));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('names the move being sown in its label, its highlight and its address, and opens a single stone from a link', async () => {
    const { page, errors, context } = await newPlayer(harness.browser);
    const total = game.moves.length;
    const stonesOf = (move: number) => stones[move - 1]!.length - 1;
    const where = () => page.textContent('[data-where]').then((text) => text!.replace(/\s+/g, ' ').trim());
    const highlighted = () => page.getAttribute('.moves [aria-current="true"]', 'data-ply');

    // By moves to move 3, then one stone on: the board sows move 4, and everything says move 4.
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=0`);
    await page.waitForSelector('[data-replay][data-ply="0"][data-step="rest"]');
    for (let i = 0; i < 3; i++) await page.click('[data-action="next-move"]');
    await page.waitForSelector('[data-replay][data-ply="3"][data-step="rest"]');
    expect(await where()).toBe(`Move 3 of ${total}`);
    expect(await highlighted()).toBe('3');
    await page.click('[data-action="next-stone"]');
    await page.waitForSelector('[data-replay][data-ply="3"][data-step="0"]');
    expect(await where()).toBe(`Move 4 of ${total} · Stone 1 of ${stonesOf(4)}`);
    expect(await highlighted()).toBe('4');
    await page.waitForURL(/move=4&stone=1$/);

    // The address of the fifth stone of move 4 opens exactly that stone.
    await page.goto(`${harness.server.url}/m/${game.matchId}?move=4&stone=5`);
    await page.waitForSelector('[data-replay][data-ply="3"][data-step="4"]');
    expect(await boardCounts(page)).toEqual(stones[3]![4]);
    expect(await where()).toBe(`Move 4 of ${total} · Stone 5 of ${stonesOf(4)}`);
    expect(await highlighted()).toBe('4');

    // Autoplay from the start: caught mid-sowing, the label and the highlight name the move on the board.
    await page.click('[data-action="first"]');
    await page.click('[data-action="play"]');
    // Read in one frame, the first one past a move's first stone, so the state cannot move on between the reads.
    const caught = (await (
      await page.waitForFunction(() => {
        const replay = document.querySelector('[data-replay]')!;
        if (!(Number(replay.getAttribute('data-step')) >= 1)) return null;
        return {
          ply: replay.getAttribute('data-ply'),
          step: replay.getAttribute('data-step'),
          where: document.querySelector('[data-where]')!.textContent!.replace(/\s+/g, ' ').trim(),
          highlighted: document.querySelector('.moves [aria-current="true"]')?.getAttribute('data-ply') ?? null,
        };
      })
    ).jsonValue()) as { ply: string; step: string; where: string; highlighted: string | null };
    await page.click('[data-action="play"]');
    const move = Number(caught.ply) + 1;
    expect(caught).toEqual({
      ply: caught.ply,
      step: caught.step,
      where: `Move ${move} of ${total} · Stone ${Number(caught.step) + 1} of ${stonesOf(move)}`,
      highlighted: String(move),
    });

    // Turned around, the board keeps every move's name: the rotation of sowing is the same from both sides.
    const marks = () => page.$$eval('.moves [data-ply] .mark', (found) => found.map((mark) => mark.textContent!.trim()));
    const before = await marks();
    expect(before).toHaveLength(total);
    await page.click('[aria-pressed][aria-label="Turn the board around"]');
    await page.waitForSelector('[aria-pressed="true"][aria-label="Turn the board around"]');
    expect(await marks()).toEqual(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is linked from the room page and from both players’ profiles', async () => {
    const { page, errors, context } = await newPlayer(harness.browser);
    await page.goto(`${harness.server.url}/r/${game.roomCode}`);
    await page.click('[data-replay-link]');
    await page.waitForSelector(`[data-replay="${game.matchId}"] [data-board]`);
    for (const player of game.players) {
      await page.goto(`${harness.server.url}/p/${player.player.id}`);
      await page.click(`[data-match-item="${game.matchId}"] a`);
      await page.waitForSelector(`[data-replay="${game.matchId}"] [data-board]`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a player their own game from their own side on a 320 px phone, however late the session is known; the flip turns it', async () => {
    const { page, errors, context } = await newPlayer(harness.browser, { viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, locale: 'vi-VN' });
    // The second player, seat 1, whose own row was the bottom one while they played.
    await context.addCookies([{ name: SESSION_COOKIE, value: game.players[1].token, url: harness.server.url }]);
    // Who this browser is comes back only once the replay is drawn: the side must follow it then.
    let drawn!: () => void;
    const replayDrawn = new Promise<void>((resolve) => (drawn = resolve));
    await context.route('**/api/me', async (route) => {
      await replayDrawn;
      await route.continue();
    });
    await page.goto(`${harness.server.url}/m/${game.matchId}`);
    await page.waitForSelector('[data-replay] [data-board]');
    drawn();
    await page.waitForSelector('[data-replay] [data-board][data-bottom="1"]');
    const panels = () => page.$$eval('[data-replay] [data-player]', (list) => list.map((panel) => [panel.getAttribute('data-player'), panel.textContent?.includes('(bạn)')]));
    // Their panel, marked as theirs, under the board; the opponent's above it.
    expect(await panels()).toEqual([
      ['0', false],
      ['1', true],
    ]);
    await page.tap('[data-action="flip"]');
    await page.waitForSelector('[data-replay] [data-board][data-bottom="0"]');
    expect(await panels()).toEqual([
      ['1', true],
      ['0', false],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
