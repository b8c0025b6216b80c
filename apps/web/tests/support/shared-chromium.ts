import { connectChromium, launchChromium, launchChromiumServer } from '@oanquan/testkit';
import type { Browser } from 'playwright-core';

/**
 * The suite's global set-up: one Chromium for every browser test file, each
 * file connecting with contexts of its own (as isolated as a browser of their
 * own: cookies, storage, cache). Launching one per file cost each file about
 * 2.5 s of processor, some 100 s over the suite on a two-core machine.
 */
const ENDPOINT_ENV = 'OANQUAN_WEB_CHROMIUM_WS';

export default async function setup(): Promise<() => Promise<void>> {
  const server = await launchChromiumServer();
  process.env[ENDPOINT_ENV] = server.wsEndpoint();
  return () => server.close();
}

/** The suite's Chromium when the global set-up started one (a file run alone with another config launches its own). */
export function sharedChromium(): Promise<Browser> {
  const endpoint = process.env[ENDPOINT_ENV];
  return endpoint ? connectChromium(endpoint) : launchChromium();
}
