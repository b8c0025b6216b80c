import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Download, Page } from 'playwright-core';
import { migratedDataDir } from './migrated-data.js';
import { privatePostgres, startServerProcess, type PrivatePostgres, type ServerProcess } from '@oanquan/testkit';
import { sharedChromium } from './shared-chromium.js';

export const artifactsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts');

/** The real server (serving the built web app) over a fresh PGlite directory, and the system's Chromium. */
export interface Harness {
  server: ServerProcess;
  browser: Browser;
  close(): Promise<void>;
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const data = await migratedDataDir();
  return harnessOn({ PGLITE_DATA_DIR: data.dir, ...env }, data.drop);
}

/** The real server on a PostgreSQL of the test's own, which the test may stop and start, and the system's Chromium. */
export type PostgresHarness = Harness & { database: PrivatePostgres };

export async function startPostgresHarness(env: Record<string, string> = {}): Promise<PostgresHarness> {
  const database = await privatePostgres();
  return { ...(await harnessOn({ DATABASE_URL: database.url, ...env }, database.destroy)), database };
}

/**
 * V8's baseline WebAssembly compiler only: a test's server lives seconds to a
 * minute, and compiling PGlite's hot functions again with the optimizing tier
 * took about 1.6 s of its 4 s of processor to start (the pages it served came
 * no slower). A server of `pnpm start` keeps both tiers (src/wasm-tiers.ts).
 */
const testServerArgs = ['--liftoff-only'];

/** The server on the database `env` names, and Chromium; `dropData` runs once both are gone. */
async function harnessOn(env: Record<string, string>, dropData: () => Promise<void>): Promise<Harness> {
  // No drain notice when it stops (3 s by default): its pages are closed by then.
  const [started, launched] = await Promise.allSettled([startServerProcess({ LOG_LEVEL: 'warn', DRAIN_NOTICE_MS: '0', ...env }, { nodeArgs: testServerArgs }), sharedChromium()]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    // Whichever did start is stopped: a server left running outlives the test run.
    if (started.status === 'fulfilled') {
      started.value.child.kill('SIGTERM');
      await started.value.exited;
    }
    if (launched.status === 'fulfilled') await launched.value.close();
    await dropData();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const [server, browser] = [started.value, launched.value];
  return {
    server,
    browser,
    async close() {
      await browser.close();
      server.child.kill('SIGTERM');
      await server.exited;
      await dropData();
      // What the server logged as failed (a tick, a commit) is shown: a test that timed out waiting may have been waiting on it.
      const failures = server.output().split('\n').filter((line) => /"level":(40|50|60)/.test(line) && /fail/i.test(line));
      if (failures.length) console.error(`the server logged ${failures.length} failure(s):\n${failures.slice(0, 20).join('\n')}`);
    },
  };
}

export interface Player {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page; a test expects none. */
  errors: string[];
}

/**
 * A browser context of its own (its own guest token), sowing shown
 * instantly unless `speed` says otherwise, so a click costs no animation;
 * `speed: null` leaves the speed unchosen, as a newcomer's.
 */
export async function newPlayer(
  browser: Browser,
  options: BrowserContextOptions & { speed?: 'instant' | 'normal' | 'fast' | 'slow' | null } = {},
): Promise<Player> {
  const { speed = 'instant', ...contextOptions } = options;
  // No service worker unless a test is about it: installing one fetches the whole app shell after a first page,
  // processor every test would pay, and a page it cached could answer a test that meant to reach the server.
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 800 }, serviceWorkers: 'block', ...contextOptions });
  if (speed !== null) await context.addInitScript((chosen) => localStorage.setItem('oanquan.speed', chosen), speed);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** The dân count of every square as the board shows it, by ring index. */
export async function boardCounts(page: Page): Promise<number[]> {
  return page.$$eval('[data-board] [data-square]', (squares) => {
    const counts: number[] = Array(12).fill(-1);
    for (const square of squares) counts[Number(square.getAttribute('data-square'))] = Number(square.getAttribute('data-count'));
    return counts;
  });
}

/** Whether the page is wider than its viewport (something overflows horizontally). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export async function verticalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

const docsScreenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/screenshots');

/**
 * A picture for the docs. Test runs write it among the artifacts, so a run leaves the tracked
 * files alone; `UPDATE_DOCS_SCREENSHOTS=1` writes it into docs/screenshots.
 */
export async function docsScreenshot(
  target: Pick<Page, 'screenshot'>,
  name: string,
  options: { clip?: { x: number; y: number; width: number; height: number }; fullPage?: boolean } = {},
): Promise<void> {
  const dir = process.env.UPDATE_DOCS_SCREENSHOTS === '1' ? docsScreenshots : artifactsDir;
  await mkdir(dir, { recursive: true });
  await target.screenshot({ ...options, path: path.join(dir, `${name}.png`) });
}

/** A deterministic chooser of legal moves: the same seed plays the same game. */
export function seeded(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

/**
 * Turns the guest of this page's browser into an account, the way the site
 * does (a same-origin request carrying the session cookie). Rated play needs one.
 */
export async function keepAccount(page: Page, username: string, password = 'correct horse battery'): Promise<void> {
  const status = await page.evaluate(
    async (body) => (await fetch('/api/account', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
    { username, password },
  );
  if (status !== 201) throw new Error(`account not kept: HTTP ${status}`);
}

/** A download's contents, read through the browser's connection (the suite's Chromium is another process: no local path). */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
