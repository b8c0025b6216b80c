/**
 * The home page's largest contentful paint in Chromium, on a phone 390 px
 * wide over slow 4G with its processor slowed four times (as Chrome's
 * DevTools and Lighthouse emulate a mid-range phone), and on an unthrottled
 * desktop.
 *
 * On the phone: a first visit (no cookie, empty cache) and a repeat visit
 * (a new tab of the same browser, the service worker installed by the first
 * one serving the page and its files), each beside the floor — the home
 * page's document made static, no script or style sheet, the same size,
 * served by the same server under the same throttling, first and repeat —
 * and the ratio to it. Per measure: median, 90th percentile and range of
 * BENCH_LCP_RUNS visits (default 7), the first paint, when the page learnt
 * who it is (its session or /api/me answered) and which element painted largest.
 *
 * Needs a built web app (`pnpm build`). Run: `pnpm --filter @oanquan/web bench:lcp`.
 * Figures move with the machine's load: compare runs made side by side.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifactsDir, startHarness } from '../tests/support/harness.js';

const RUNS = Number(process.env.BENCH_LCP_RUNS ?? 7);
const FLOOR_PATH = '/bench-floor.html';

interface Profile {
  name: string;
  viewport: { width: number; height: number };
  mobile: boolean;
  /** Chrome DevTools' "Slow 4G": 150 ms round trips and 1.6 Mbit/s down, 750 kbit/s up, as DevTools applies them (×3.75, ×0.9). */
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
  cpuSlowdown: number;
}

const PHONE: Profile = {
  name: 'phone 390 px, slow 4G, CPU ×4',
  viewport: { width: 390, height: 844 },
  mobile: true,
  network: { latency: 150 * 3.75, downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9, uploadThroughput: ((750 * 1024) / 8) * 0.9 },
  cpuSlowdown: 4,
};
const DESKTOP: Profile = { name: 'desktop, unthrottled', viewport: { width: 1280, height: 800 }, mobile: false, network: null, cpuSlowdown: 1 };

interface Visit {
  lcp: number;
  fcp: number;
  /** When the page learnt who it is (POST /api/session on a first visit, GET /api/me then; NaN on the floor page, which asks nothing). */
  session: number;
  element: string;
  /** Requests of the visit the service worker answered, of all. */
  fromWorker: string;
}

async function newVisitor(browser: Browser, profile: Profile): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: profile.viewport, isMobile: profile.mobile, locale: 'vi-VN' });
  await context.addInitScript(() => {
    const seen: Array<{ at: number; element: string }> = [];
    (window as unknown as { __lcp: typeof seen }).__lcp = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { element: Element | null }>) {
        const el = entry.element;
        const name = el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}` : '?';
        seen.push({ at: entry.startTime, element: `${name} "${(el?.textContent ?? '').trim().slice(0, 40)}"` });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  return context;
}

/** One visit to `url` in a new tab of `context`, throttled as `profile` says; `home` waits for what the session brings in. */
async function visit(context: BrowserContext, url: string, profile: Profile, home: boolean): Promise<{ visit: Visit; page: Page }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  let answered = 0;
  let total = 0;
  page.on('response', (response) => {
    total++;
    if (response.fromServiceWorker()) answered++;
  });
  const session = home
    ? page.waitForResponse((response) => ['/api/session', '/api/me'].includes(new URL(response.url()).pathname))
    : null;
  await page.goto(url, { waitUntil: 'load' });
  let sessionAt = NaN;
  if (session) {
    const response = await session;
    sessionAt = await page.evaluate(
      (answeredUrl) => performance.getEntriesByType('resource').find((entry) => entry.name === answeredUrl)?.responseEnd ?? NaN,
      response.url(),
    );
    // What the session brings in has painted.
    await page.waitForSelector('[data-casual-hint]');
  }
  // Some quiet for any later candidate.
  await page.waitForTimeout(1500);
  const result = await page.evaluate((session) => {
    const seen = (window as unknown as { __lcp: Array<{ at: number; element: string }> }).__lcp;
    const last = seen[seen.length - 1]!;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    return { lcp: last.at, fcp, session, element: last.element };
  }, sessionAt);
  await cdp.detach();
  return { visit: { ...result, fromWorker: `${answered}/${total}` }, page };
}

/** A first visit in a fresh browser profile, then (once its service worker is active) a repeat visit in a new tab of it. */
async function firstAndRepeat(browser: Browser, url: string, profile: Profile, home: boolean): Promise<[Visit, Visit]> {
  const context = await newVisitor(browser, profile);
  try {
    const first = await visit(context, url, profile, home);
    if (home) await first.page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await first.page.close();
    const repeat = await visit(context, url, profile, home);
    return [first.visit, repeat.visit];
  } finally {
    await context.close();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const figures = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), min: sorted[0]!, max: sorted[sorted.length - 1]! };
};
const ms = (values: number[]) => {
  if (values.every(Number.isNaN)) return '—';
  const f = figures(values);
  return `p50 ${Math.round(f.p50)} ms, p90 ${Math.round(f.p90)} ms (${Math.round(f.min)}–${Math.round(f.max)})`;
};

function print(title: string, visits: Visit[], floor?: Visit[], goal?: number): void {
  console.log(`${title} (${visits.length} visits)`);
  const lcp = visits.map((v) => v.lcp);
  console.log(`  largest contentful paint  ${ms(lcp)}${goal ? `   goal ≤ ${goal} ms: ${figures(lcp).p50 <= goal ? 'met' : 'not met'} at p50` : ''}`);
  if (floor) {
    const f = figures(floor.map((v) => v.lcp));
    const h = figures(lcp);
    console.log(`  floor (static page, same size)  ${ms(floor.map((v) => v.lcp))}   ratio p50 ×${(h.p50 / f.p50).toFixed(2)}, p90 ×${(h.p90 / f.p90).toFixed(2)}`);
  }
  console.log(`  first contentful paint    ${ms(visits.map((v) => v.fcp))}`);
  console.log(`  identity answered         ${ms(visits.map((v) => v.session))}`);
  console.log(`  served by the worker      ${[...new Set(visits.map((v) => v.fromWorker))].join(', ')} responses`);
  const elements = new Map<string, number>();
  for (const v of visits) elements.set(v.element, (elements.get(v.element) ?? 0) + 1);
  for (const [element, n] of elements) console.log(`  largest element           ${element} ×${n}`);
}

/**
 * The floor: the home page's own document made static — its markup and
 * text, its scripts and style sheets turned into comments of the same
 * length (so it weighs the same, gzipped too) — so that what the network
 * and drawing that much HTML cost alone is measured in the same run.
 * Written, with its gzipped copy (the page goes gzipped too), into a copy
 * of the build, whose static files the server reads when it starts.
 */
async function floorBuild(homeHtml: string): Promise<string> {
  const builtApp = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build');
  await mkdir(artifactsDir, { recursive: true });
  const dir = await mkdtemp(path.join(artifactsDir, 'bench-build-'));
  await cp(builtApp, dir, { recursive: true });
  const asComment = (element: string) => `<!--${element.slice(4, -3).replaceAll('--', '- ').replaceAll('>', ' ')}-->`;
  const floor = homeHtml
    .replace(/<script\b[\s\S]*?<\/script>|<style\b[\s\S]*?<\/style>|<link\b[^>]*>/g, asComment)
    .replace(/ style="[^"]*"/g, (attribute) => ' '.repeat(attribute.length));
  await writeFile(path.join(dir, 'client', FLOOR_PATH), floor);
  await writeFile(path.join(dir, 'client', `${FLOOR_PATH}.gz`), gzipSync(floor));
  return dir;
}

// The home page's size first, from a server over the build itself.
let homeHtml: string;
{
  const probe = await startHarness();
  try {
    homeHtml = await (await fetch(probe.server.url, { headers: { 'accept-language': 'vi' } })).text();
  } finally {
    await probe.close();
  }
}
const build = await floorBuild(homeHtml);
const harness = await startHarness({ WEB_BUILD_DIR: build });
try {
  const url = harness.server.url;
  console.log(`home page document ${Buffer.byteLength(homeHtml)} bytes (${gzipSync(homeHtml).length} gzipped); the floor page the same; ${RUNS} runs each`);
  // One visit first, unmeasured: the server's first page render and first session.
  await firstAndRepeat(harness.browser, url, DESKTOP, true);
  const home: Array<[Visit, Visit]> = [];
  const floor: Array<[Visit, Visit]> = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so that a busier moment of the machine weighs on both.
    home.push(await firstAndRepeat(harness.browser, url, PHONE, true));
    floor.push(await firstAndRepeat(harness.browser, `${url}${FLOOR_PATH}`, PHONE, false));
  }
  print(`home page, first visit, ${PHONE.name}`, home.map(([first]) => first), floor.map(([first]) => first), 1000);
  print(`home page, repeat visit (service worker), ${PHONE.name}`, home.map(([, repeat]) => repeat), floor.map(([, repeat]) => repeat), 500);
  const desktop: Visit[] = [];
  for (let i = 0; i < RUNS; i++) desktop.push((await firstAndRepeat(harness.browser, url, DESKTOP, true))[0]);
  print(`home page, first visit, ${DESKTOP.name}`, desktop);
} finally {
  await harness.close();
  await rm(build, { recursive: true, force: true });
}
