/**
 * The home page's largest contentful paint for a first visit, in Chromium:
 * on a phone over slow 4G with its processor slowed four times (as Chrome's
 * DevTools and Lighthouse emulate a mid-range phone), and on an unthrottled
 * desktop. Prints, per profile, the largest paint and the first paint
 * (median, fastest, slowest of BENCH_LCP_RUNS fresh visits, default 5), when
 * the page learnt its session (POST /api/session answered), and which element
 * painted largest.
 *
 * Needs a built web app (`pnpm build`). Run: `pnpm --filter @oanquan/web bench:lcp`.
 * Figures move with the machine's load: compare runs made side by side.
 */
import type { Browser } from 'playwright-core';
import { startHarness } from '../tests/support/harness.js';

const RUNS = Number(process.env.BENCH_LCP_RUNS ?? 5);

interface Profile {
  name: string;
  viewport: { width: number; height: number };
  mobile: boolean;
  /** Chrome DevTools' "Slow 4G": 150 ms round trips and 1.6 Mbit/s down, 750 kbit/s up, as DevTools applies them (×3.75, ×0.9). */
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
  cpuSlowdown: number;
}

const PROFILES: Profile[] = [
  {
    name: 'phone, slow 4G, CPU ×4',
    viewport: { width: 360, height: 740 },
    mobile: true,
    network: { latency: 150 * 3.75, downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9, uploadThroughput: ((750 * 1024) / 8) * 0.9 },
    cpuSlowdown: 4,
  },
  { name: 'desktop, unthrottled', viewport: { width: 1280, height: 800 }, mobile: false, network: null, cpuSlowdown: 1 },
];

interface Visit {
  lcp: number;
  fcp: number;
  session: number;
  element: string;
}

/** One first visit: a fresh context (no cookie, empty cache). */
async function visit(browser: Browser, url: string, profile: Profile): Promise<Visit> {
  const context = await browser.newContext({ viewport: profile.viewport, isMobile: profile.mobile, locale: 'vi-VN' });
  try {
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
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    const session = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/session' && response.request().method() === 'POST');
    await page.goto(url, { waitUntil: 'load' });
    const answered = await session;
    const sessionAt = await page.evaluate(
      (answeredUrl) => performance.getEntriesByType('resource').find((entry) => entry.name === answeredUrl)?.responseEnd ?? NaN,
      answered.url(),
    );
    // What the session brings in has painted, and then some quiet for any later candidate.
    await page.waitForSelector('[data-casual-hint]');
    await page.waitForTimeout(1500);
    return await page.evaluate((session) => {
      const seen = (window as unknown as { __lcp: Array<{ at: number; element: string }> }).__lcp;
      const last = seen[seen.length - 1]!;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      return { lcp: last.at, fcp, session, element: last.element };
    }, sessionAt);
  } finally {
    await context.close();
  }
}

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${Math.round(median)} ms (${Math.round(sorted[0]!)}–${Math.round(sorted[sorted.length - 1]!)})`;
};

const harness = await startHarness();
try {
  const url = harness.server.url;
  // One visit first, unmeasured: the server's first page render and first session.
  await visit(harness.browser, url, PROFILES[1]!);
  for (const profile of PROFILES) {
    const visits: Visit[] = [];
    for (let i = 0; i < RUNS; i++) visits.push(await visit(harness.browser, url, profile));
    console.log(`home page, first visit, ${profile.name} (${RUNS} visits)`);
    console.log(`  largest contentful paint  ${ms(visits.map((v) => v.lcp))}`);
    console.log(`  first contentful paint    ${ms(visits.map((v) => v.fcp))}`);
    console.log(`  session answered          ${ms(visits.map((v) => v.session))}`);
    const elements = new Map<string, number>();
    for (const v of visits) elements.set(v.element, (elements.get(v.element) ?? 0) + 1);
    for (const [element, n] of elements) console.log(`  largest element           ${element} ×${n}`);
  }
} finally {
  await harness.close();
}
