/**
 * Pages where a game is played or awaited: a room (/r/…) and an arena
 * (/a/…). A new version of the app never takes over while one is open — its
 * scripts are those of the build it was opened with, and a new worker would
 * drop that build's cached files from under it — so the service worker
 * refuses to activate and the page offers no reload there.
 */
export function isGamePage(pathname: string): boolean {
  return /^\/[ra]\/[^/]+\/?$/.test(pathname);
}

/**
 * Held (shared) by every tab while it shows a game page, asked for by the
 * worker before it takes over. A lock rather than the tabs' URLs: a worker
 * sees a tab at the URL it was opened at, not where the app has moved it
 * since, and a lock is let go by the browser when the tab closes.
 */
export const GAME_LOCK = 'oanquan.game-open';

/** Holds GAME_LOCK until the returned function is called (nothing where the browser has no Web Locks). */
export function holdGameLock(): () => void {
  let release: (() => void) | undefined;
  let done = false;
  void navigator.locks
    ?.request(GAME_LOCK, { mode: 'shared' }, () => (done ? undefined : new Promise<void>((resolve) => (release = resolve))))
    .catch(() => {
      // A lock refused (a storage-less context) leaves the update to wait for the tab to close.
    });
  return () => {
    done = true;
    release?.();
  };
}

/** What a page and the service worker say to each other. */
export type WorkerMessage =
  /** Page → waiting worker: activate now (refused while a game page is open). */
  | { type: 'activate' }
  /** Waiting worker → page: a game page is open in some tab, so not now. */
  | { type: 'deferred' }
  /** Page → worker: which version are you? Answered with `version`. */
  | { type: 'version?' }
  | { type: 'version'; version: string };
