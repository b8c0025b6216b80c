import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type BrowserServer, type LaunchOptions } from 'playwright-core';

/**
 * The system's Chromium (Debian's package), never a downloaded one. A missing
 * browser fails the run: the browser tests are part of every test run.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function launchOptions(): LaunchOptions {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
  }
  return {
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

/** A Chromium that test files connect to (`connectChromium`), each with contexts of its own. */
export async function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions());
}

/** A connection to a `launchChromiumServer` browser; closing it closes its contexts and leaves the browser running. */
export async function connectChromium(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

/**
 * Chromium with a profile on disk in `userDataDir`, as a visitor's browser
 * is: what a browser decides only outside incognito (whether a site can be
 * installed) needs one; `launchChromium`'s contexts are all incognito.
 */
export async function launchPersistentChromium(userDataDir: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { ...launchOptions(), ...options });
}
