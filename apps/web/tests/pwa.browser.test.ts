import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPersistentChromium } from '@oanquan/testkit';
import { artifactsDir, newPlayer, startHarness, type Harness } from './support/harness.js';

const builtApp = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build');

/** Once this page's service worker is active (a first visit installs it and precaches the shell first). */
async function workerActive(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/** The version of the worker controlling the page, as it says itself. */
async function controllerVersion(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return reject(new Error('no service worker controls this page'));
        const channel = (event: MessageEvent) => {
          if (event.data?.type !== 'version') return;
          navigator.serviceWorker.removeEventListener('message', channel);
          resolve(event.data.version);
        };
        navigator.serviceWorker.addEventListener('message', channel);
        navigator.serviceWorker.startMessages();
        controller.postMessage({ type: 'version?' });
      }),
  );
}

/** A PNG's width and height, read from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** The manifest's names, icons (their real sizes) and the worker script's headers. */
async function expectManifestAndWorkerHeaders(page: Page): Promise<void> {
  const origin = new URL(page.url()).origin;
  const manifest = await (await page.request.get(`${origin}/manifest.webmanifest`)).json();
  expect(manifest).toMatchObject({ id: '/', start_url: '/', scope: '/', display: 'standalone', name: 'Ô ăn quan', lang: 'vi' });
  expect(manifest.description).toContain('Trò chơi');
  expect(manifest.description).toContain('mandarin squares');
  const sizes: string[] = [];
  for (const icon of manifest.icons.filter((i: { type: string }) => i.type === 'image/png')) {
    const response = await page.request.get(`${origin}${icon.src}`);
    expect(response.headers()['content-type']).toBe('image/png');
    expect(pngSize(await response.body())).toBe(icon.sizes);
    sizes.push(`${icon.sizes} ${icon.purpose}`);
  }
  expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  const appleIcon = new URL((await page.getAttribute('link[rel="apple-touch-icon"]', 'href'))!, page.url());
  expect(pngSize(await (await page.request.get(appleIcon.href)).body())).toBe('180x180');

  // The worker's own headers: asked anew at each update check, and allowed to fetch from this origin only.
  const script = await page.request.get(`${origin}/service-worker.js`);
  expect(script.headers()['content-type']).toMatch(/^text\/javascript/);
  expect(script.headers()['cache-control']).toBe('no-cache');
  expect(script.headers()['content-security-policy']).toBe("default-src 'none'; connect-src 'self'");
}

describe('the installable app and its service worker in Chromium', () => {
  let harness: Harness;
  /**
   * A copy of the built app for this server alone, the update test puts a new worker into it; under
   * apps/web, where its server part finds the packages it imports.
   */
  let build: string;
  beforeAll(async () => {
    await mkdir(artifactsDir, { recursive: true });
    build = await mkdtemp(path.join(artifactsDir, 'build-'));
    await cp(builtApp, build, { recursive: true });
    harness = await startHarness({ WEB_BUILD_DIR: build });
  });
  afterAll(async () => {
    await harness?.close();
    if (build) await rm(build, { recursive: true, force: true });
  });

  it('is installable: a manifest with its icons, and Chromium finds nothing missing', async () => {
    // Installing is not offered in incognito, and every context of the shared browser is: a profile on disk of its own.
    const profile = await mkdtemp(path.join(artifactsDir, 'profile-'));
    const context = await launchPersistentChromium(profile, { viewport: { width: 390, height: 844 } });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(harness.server.url);
      await workerActive(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
      await expectManifestAndWorkerHeaders(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  it('serves a second visit from the worker, never the API, and the home page offline', async () => {
    const { page, context, errors } = await newPlayer(harness.browser, { serviceWorkers: 'allow' });
    await page.goto(harness.server.url);
    await page.waitForSelector('[data-me] [data-my-name]');
    await workerActive(page);

    const responses: Response[] = [];
    page.on('response', (response) => responses.push(response));
    await page.goto(harness.server.url);
    await page.waitForSelector('[data-me] [data-my-name]');
    const byPath = (test: (pathname: string) => boolean) => responses.filter((r) => test(new URL(r.url()).pathname));
    const document = byPath((p) => p === '/');
    expect(document.map((r) => r.fromServiceWorker())).toEqual([true]);
    const assets = byPath((p) => p.startsWith('/_app/immutable/'));
    expect(assets.length).toBeGreaterThan(3);
    expect(assets.filter((r) => !r.fromServiceWorker()).map((r) => r.url())).toEqual([]);
    const api = byPath((p) => p.startsWith('/api/') || p.startsWith('/socket.io/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((r) => r.fromServiceWorker()).map((r) => r.url())).toEqual([]);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const key of await caches.keys()) for (const request of await (await caches.open(key)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(cached).toContain('/');
    expect(cached).toContain('/local');
    expect(cached.filter((p) => p.startsWith('/api/') || p.startsWith('/socket.io/'))).toEqual([]);

    // Offline, the home page still opens, drawn by the server when it was last online.
    await context.setOffline(true);
    await page.goto(`${harness.server.url}/`);
    expect(await page.locator('h1').textContent()).toBe('Ô ăn quan');
    await context.setOffline(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a new version wait while a game page is open, and offers it outside games', async () => {
    const { page: home, context, errors } = await newPlayer(harness.browser, { serviceWorkers: 'allow' });
    await home.goto(harness.server.url);
    await home.waitForSelector('[data-me] [data-my-name]');
    await workerActive(home);
    await home.reload();
    const before = await controllerVersion(home);

    // A game page in a second tab of the same browser: a room waiting for its opponent.
    const game = await context.newPage();
    await game.goto(harness.server.url);
    await game.waitForSelector('[data-me] [data-my-name]');
    await game.click('[data-create]');
    await game.waitForSelector('[data-waiting]');
    expect(new URL(game.url()).pathname).toMatch(/^\/r\//);

    // A new build's worker: the same script under another version, as a deployment would serve it.
    const workerFile = path.join(build, 'client/service-worker.js');
    const script = await readFile(workerFile, 'utf8');
    expect(script).toContain(before);
    const after = String(Number(before) + 1);
    await writeFile(workerFile, script.replaceAll(before, after));
    await home.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())!.update();
    });

    // Installed and waiting; the home page offers it, the game page does not.
    await home.waitForSelector('[data-update-reload]');
    expect(await game.locator('[data-update-ready]').count()).toBe(0);
    await home.click('[data-update-reload]');
    await home.waitForSelector('[data-update-deferred]');
    expect(await controllerVersion(home)).toBe(before);
    expect(await controllerVersion(game)).toBe(before);
    expect(await game.locator('[data-waiting]').count()).toBe(1);

    // The game closed, the offer comes back and takes: the new version's worker controls the page, and the old caches are gone.
    await game.close();
    await home.waitForSelector('[data-update-reload]');
    await Promise.all([home.waitForEvent('framenavigated'), home.click('[data-update-reload]')]);
    await home.waitForSelector('[data-me] [data-my-name]');
    expect(await controllerVersion(home)).toBe(after);
    const cacheNames = await home.evaluate(() => caches.keys());
    expect(cacheNames.sort()).toEqual([`pages-${after}`, `shell-${after}`]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
