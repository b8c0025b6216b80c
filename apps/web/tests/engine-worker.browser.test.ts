// The engine in a page's module worker plays what the engine in Node plays:
// from the same seeded positions, at every level with the same seed, the
// same move. The page is built by Vite as the app's pages are (the worker
// bundled from `new URL('./engine.worker.ts', import.meta.url)`), served
// from disk, and run in the system's Chromium; the worker is fetched on the
// first call only. Without the exact solver's depth cap, level 8 overflowed
// the worker's stack on testkit's six-dân endgame (a RangeError).

import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestMove, stateOfGame, type GameInput, type Level } from '@oanquan/engine/browser';
import { DEFAULT_RULES, legalMoves, newGame, play, stateFromPosition, type Move } from '@oanquan/rules';
import { LONGEST_PLY_LIMIT, SIX_DAN_ENDGAME } from '@oanquan/testkit';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedChromium } from './support/shared-chromium.js';


const PAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'support/engine-page');
const POSITIONS = 16;

/** A small deterministic generator (mulberry32): the positions are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A game of random legal moves from the start, 2 to 60 plies long, still going on. */
function randomGame(seed: number): GameInput {
  const random = seeded(seed);
  const first = (seed % 2) as 0 | 1;
  const length = 2 + Math.floor(random() * 59);
  const moves: Move[] = [];
  let state = newGame({ rules: DEFAULT_RULES, first });
  while (moves.length < length) {
    const legal = legalMoves(state);
    const move = legal[Math.floor(random() * legal.length)]!;
    const next = play(state, move);
    if (!next.ok) throw new Error(next.code);
    if (next.state.position.status !== 'playing') break;
    moves.push(move);
    state = next.state;
  }
  return { rules: DEFAULT_RULES, first, moves };
}

function serveDirectory(dir: string): Promise<{ server: Server; url: string }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer(async (request, response) => {
    const name = new URL(request.url ?? '/', 'http://x').pathname;
    const file = path.join(dir, name === '/' ? 'index.html' : name);
    if (!file.startsWith(dir)) return void response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

describe('the engine in a module worker in Chromium', () => {
  let outDir: string;
  let served: { server: Server; url: string };
  let browser: Browser;

  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'engine-page-'));
    await build({ configFile: false, root: PAGE_DIR, logLevel: 'warn', worker: { format: 'es' }, build: { outDir, emptyOutDir: true } });
    served = await serveDirectory(outDir);
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => served?.server.close(resolve));
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('chooses the moves the engine in Node chooses at every level, loads the worker on the first call only, and stays within its stack under a ply limit of 10,000', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const workerScripts: string[] = [];
    page.on('request', (request) => {
      if (/engine\.worker/.test(request.url())) workerScripts.push(request.url());
    });
    await page.goto(served.url);
    await page.waitForSelector('body[data-ready]', { state: 'attached' });
    expect(workerScripts).toEqual([]);

    const games = Array.from({ length: POSITIONS }, (_, i) => randomGame(7919 * (i + 1)));
    const levels = games.map((_, i) => ((i % 8) + 1) as Level);
    const seeds = games.map((_, i) => 1000 + i);
    const inPage = await page.evaluate(
      async ({ games, levels, seeds }) => {
        const { computerMove } = window as unknown as { computerMove: (game: unknown, level: number, options: { seed: number }) => Promise<unknown> };
        const moves = [];
        for (const [i, game] of games.entries()) moves.push(await computerMove(game, levels[i]!, { seed: seeds[i]! }));
        return moves;
      },
      { games, levels, seeds },
    );
    const inNode = games.map((game, i) => {
      const state = stateOfGame(game);
      if ('code' in state) throw new Error(state.code);
      const move = bestMove(state, { level: levels[i], seed: seeds[i] }).move;
      expect(legalMoves(state)).toContainEqual(move);
      return move;
    });
    expect(inPage).toEqual(inNode);
    // The positions are not all alike: the agreement is over different moves.
    expect(new Set(inNode.map((move) => `${move.square}${move.dir}`)).size).toBeGreaterThan(3);
    expect(workerScripts).toHaveLength(1);

    // Level 8 with six dân on the board under a ply limit of 10,000 (R4.4): the exact solver's lines stay within the worker's stack.
    const state = stateFromPosition(SIX_DAN_ENDGAME, { plyLimit: LONGEST_PLY_LIMIT });
    const deep = await page.evaluate(async (game) => {
      const { computerMove } = window as unknown as { computerMove: (game: unknown, level: number) => Promise<unknown> };
      return computerMove(game, 8).then(
        (move) => ({ move }),
        (error: Error) => ({ error: `${error.name}: ${error.message}` }),
      );
    }, { rules: { plyLimit: LONGEST_PLY_LIMIT }, position: SIX_DAN_ENDGAME });
    expect(deep).toEqual({ move: expect.anything() });
    expect(legalMoves(state)).toContainEqual((deep as { move: Move }).move);

    // A game that is not legal is refused with the rules' code, and the worker keeps answering.
    const refused = await page.evaluate(async () => {
      const { computerMove } = window as unknown as { computerMove: (game: unknown, level: number) => Promise<unknown> };
      return computerMove({ moves: [{ square: 7, dir: 1 }] }, 3).then(
        () => null,
        (error: { code?: string }) => error.code ?? null,
      );
    });
    expect(refused).toMatch(/^ERR_/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
