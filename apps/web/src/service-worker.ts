/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
/**
 * The app's service worker: opens the site offline and on a slow network.
 *
 * - The app shell is precached at install under this build's version: the
 *   built scripts and styles, the static files (icons, manifest) and the
 *   pages a visitor opens first (`OFFLINE_PAGES`). Those files are served
 *   from that cache.
 * - A page (a navigation) comes from the network first; only when the
 *   network fails does the last copy of it come from the cache, or the home
 *   page. The copies kept are those of `OFFLINE_PAGES`, so the cache stays
 *   as big as the shell whatever a visitor opens.
 * - Nothing else is touched: the API, the socket and every other request
 *   reach the server as if there were no worker.
 * - A new version installs beside the old one and waits. It activates when
 *   every tab of the old one has closed, or when a page asks it to and no
 *   game page is open (no tab holds GAME_LOCK, game-pages.ts); activating
 *   drops the old caches.
 */
import { build, files, version } from '$service-worker';
import { GAME_LOCK, type WorkerMessage } from '$lib/pwa/game-pages';

const sw = self as unknown as ServiceWorkerGlobalScope;

const SHELL = `shell-${version}`;
const PAGES = `pages-${version}`;
// Two on one phone (/local) plays with no server at all once its page is here.
const OFFLINE_PAGES = ['/', '/rules', '/local'];
const SHELL_FILES = new Set([...build, ...files]);

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await (await caches.open(SHELL)).addAll([...SHELL_FILES]);
      // The pages with the cookies this browser has: the same language and theme it would be served.
      await (await caches.open(PAGES)).addAll(OFFLINE_PAGES);
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== SHELL && key !== PAGES) await caches.delete(key);
      // Pages are asked for while the worker starts, rather than after (where supported).
      await sw.registration.navigationPreload?.enable();
    })(),
  );
});

sw.addEventListener('message', (event) => {
  const message = event.data as WorkerMessage;
  const source = event.source as Client | null;
  if (message?.type === 'version?') source?.postMessage({ type: 'version', version } satisfies WorkerMessage);
  if (message?.type !== 'activate') return;
  // Sent to the waiting worker; to the active one, skipWaiting does nothing.
  event.waitUntil(
    (async () => {
      // A tab's URL as a worker sees it (Client.url) stays the one it was opened at, so the game pages say so themselves, with a lock.
      const { held = [] } = await sw.navigator.locks.query();
      if (held.some((lock) => lock.name === GAME_LOCK)) source?.postMessage({ type: 'deferred' } satisfies WorkerMessage);
      else await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(page(event));
    return;
  }
  if (SHELL_FILES.has(url.pathname)) event.respondWith(shellFile(request));
});

async function shellFile(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: SHELL })) ?? fetch(request);
}

/** The network's answer, whatever its status; the cached copy (or the home page) only when there is none. */
async function page(event: FetchEvent): Promise<Response> {
  const { request } = event;
  const path = new URL(request.url).pathname;
  try {
    const response = ((await event.preloadResponse) as Response | undefined) ?? (await fetch(request));
    if (response.ok && response.type === 'basic' && OFFLINE_PAGES.includes(path)) {
      const copy = response.clone();
      event.waitUntil(caches.open(PAGES).then((cache) => cache.put(path, copy)));
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES);
    const cached = (await cache.match(path, { ignoreVary: true })) ?? (await cache.match('/', { ignoreVary: true }));
    if (cached) return cached;
    throw error;
  }
}
