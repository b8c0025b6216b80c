import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

/**
 * The system's Chromium (Debian's package), never a downloaded one. A missing
 * browser fails the run: the browser tests are part of every test run.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

function checkChromium(): void {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
  }
}

export async function launchChromium(): Promise<Browser> {
  checkChromium();
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
}

/**
 * Chromium with a profile on disk in `userDataDir`, as a visitor's browser
 * is: what a browser decides only outside incognito (whether a site can be
 * installed) needs one; `launchChromium`'s contexts are all incognito.
 */
export async function launchPersistentChromium(userDataDir: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  checkChromium();
  return chromium.launchPersistentContext(userDataDir, { executablePath: chromiumPath, args: CHROMIUM_ARGS, ...options });
}
