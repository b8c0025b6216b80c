/**
 * Draws the app's icons (static/icons/*.png) from the favicon, in the
 * system's Chromium, so that no image library with native parts is needed.
 * The PNGs are committed; run this again after changing static/favicon.svg:
 * `pnpm --filter @oanquan/web icons`.
 *
 * - icon-192.png, icon-512.png ("any"): the favicon's board on a paper tile
 *   with rounded corners, as launchers show it.
 * - icon-maskable-512.png ("maskable"): full-bleed paper, the board inside
 *   the central circle of 80 % that every mask keeps (W3C Manifest, 6.6.1).
 * - apple-touch-icon.png (180): full-bleed, since iOS fills transparency
 *   with black and rounds the corners itself.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@oanquan/testkit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The light theme's paper (--paper in src/app.css). */
const PAPER = '#f6efe3';

interface Icon {
  file: string;
  size: number;
  /** Corner radius of the tile, in the favicon's 32-unit grid (0: full-bleed). */
  radius: number;
  /** The board's width as a share of the tile. */
  scale: number;
}

const ICONS: Icon[] = [
  { file: 'icon-192.png', size: 192, radius: 6, scale: 0.95 },
  { file: 'icon-512.png', size: 512, radius: 6, scale: 0.95 },
  // The board is 28 units wide and 14 tall: at 0.72 its corners stay within the 80 % circle.
  { file: 'icon-maskable-512.png', size: 512, radius: 0, scale: 0.72 },
  { file: 'apple-touch-icon.png', size: 180, radius: 0, scale: 0.85 },
];

const favicon = await readFile(path.join(root, 'static/favicon.svg'), 'utf8');
const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(favicon)?.[1];
if (!inner) throw new Error('static/favicon.svg: no <svg> element');

function svg(icon: Icon): string {
  // The favicon's board spans 28 of its 32 units; scale it to `scale` of the tile, about the centre.
  const k = (icon.scale * 32) / 28;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${icon.size}" height="${icon.size}">` +
    `<rect width="32" height="32" rx="${icon.radius}" fill="${PAPER}"/>` +
    `<g transform="translate(16 16) scale(${k}) translate(-16 -16)">${inner}</g></svg>`
  );
}

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 512, height: 512 }, deviceScaleFactor: 1 });
  await mkdir(path.join(root, 'static/icons'), { recursive: true });
  for (const icon of ICONS) {
    await page.setContent(`<body style="margin:0;background:transparent">${svg(icon)}</body>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    await writeFile(path.join(root, 'static/icons', icon.file), png);
    console.log(`static/icons/${icon.file}  ${icon.size}×${icon.size}`);
  }
} finally {
  await browser.close();
}
