import { dev } from '$app/environment';
import { GAME_LOCK, type WorkerMessage } from './game-pages';

/** How long a page waits for the waiting worker to take over or refuse; past it, the page goes on as if refused. */
const ACTIVATION_WAIT_MS = 5000;

/**
 * The service worker as the page sees it: registered once the page has
 * loaded (its first paint and requests come first), and the new version
 * that waits to take over, if any. Taking over is asked for, never forced:
 * the worker refuses while a game page is open (service-worker.ts).
 */
class Updates {
  /** A new version installed and waiting (there was an older one controlling this page). */
  waiting = $state<ServiceWorker | null>(null);
  /** The worker refused to take over: a game is open in another tab (until it closes). */
  deferred = $state(false);

  start(): void {
    if (!('serviceWorker' in navigator)) return;
    const register = () => {
      navigator.serviceWorker
        .register('/service-worker.js', { type: dev ? 'module' : 'classic' })
        .then((registration) => this.watch(registration))
        .catch(() => {
          // No worker (private mode, an old browser): the site works as before, without offline use.
        });
    };
    if (document.readyState === 'complete') register();
    else addEventListener('load', register, { once: true });
  }

  private watch(registration: ServiceWorkerRegistration): void {
    const follow = (worker: ServiceWorker | null) => {
      if (!worker) return;
      const check = () => {
        // Installed beside a controlling worker: it waits. Without one (a first visit) it simply activates.
        if (worker.state === 'installed' && navigator.serviceWorker.controller) this.waiting = worker;
        if ((worker.state === 'activated' || worker.state === 'redundant') && this.waiting === worker) this.waiting = null;
      };
      check();
      worker.addEventListener('statechange', check);
    };
    follow(registration.waiting);
    registration.addEventListener('updatefound', () => follow(registration.installing));
  }

  /** Deferred until no tab holds the game lock any more: waiting for it alone is granted only then. */
  private deferUntilGamesClose(): void {
    this.deferred = true;
    void navigator.locks
      ?.request(GAME_LOCK, () => {
        this.deferred = false;
      })
      .catch(() => {
        // Without locks the offer stays deferred until the page is loaded again.
      });
  }

  /**
   * Asks the waiting worker to take over. True once it controls this page;
   * false if it refused (a game is open somewhere) or did not answer in time.
   */
  activate(): Promise<boolean> {
    const worker = this.waiting;
    if (!worker) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (activated: boolean) => {
        clearTimeout(timer);
        navigator.serviceWorker.removeEventListener('controllerchange', onChange);
        navigator.serviceWorker.removeEventListener('message', onMessage);
        if (!activated) this.deferUntilGamesClose();
        resolve(activated);
      };
      const onChange = () => done(true);
      const onMessage = (event: MessageEvent) => {
        if ((event.data as WorkerMessage)?.type === 'deferred') done(false);
      };
      const timer = setTimeout(() => done(false), ACTIVATION_WAIT_MS);
      navigator.serviceWorker.addEventListener('controllerchange', onChange);
      navigator.serviceWorker.addEventListener('message', onMessage);
      navigator.serviceWorker.startMessages();
      worker.postMessage({ type: 'activate' } satisfies WorkerMessage);
    });
  }
}

let instance: Updates | undefined;

export function updates(): Updates {
  return (instance ??= new Updates());
}
