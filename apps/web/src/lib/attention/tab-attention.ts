import { untrack } from 'svelte';
import { browserNotifications } from './notifications.svelte.js';

/** What the tab calls the player back for. */
export type AttentionReason = 'move' | 'challenge';

const ICON = '/favicon.svg';
const ALERT_ICON = '/favicon-alert.svg';
const MARK = '● ';

/**
 * Calls a player back to a tab they left: while the page is hidden and
 * something waits for them, the tab's title says what and its icon wears a
 * dot, and a browser notification may be shown; all of it goes when the
 * page is seen again. The title's own text stays the page's: a page that
 * retitles itself meanwhile keeps the call in front.
 */
export class TabAttention {
  /** What waits, newest last, with the words the title shows for it; not state: effects raise and drop it, nothing renders it. */
  #waiting: { reason: AttentionReason; text: string }[] = [];
  #pageTitle = '';
  #applied = '';

  /** Binds to the document; answers the undoing. */
  start(): () => void {
    const seen = () => {
      if (document.visibilityState === 'visible') this.clear();
    };
    // Svelte rewrites the title when a page's own title changes: the call goes back in front of the new one.
    const observer = new MutationObserver(() => {
      if (this.#waiting.length > 0 && document.title !== this.#applied) this.#show(document.title);
    });
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    document.addEventListener('visibilitychange', seen);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', seen);
      this.clear();
    };
  }

  /** Something waits for the player: called back if they are not looking. */
  raise(reason: AttentionReason, text: string): void {
    if (typeof document === 'undefined' || document.visibilityState === 'visible') return;
    const fresh = this.#waiting.length === 0;
    this.#waiting = [...this.#waiting.filter((entry) => entry.reason !== reason), { reason, text }];
    this.#show(fresh ? document.title : this.#pageTitle);
    // Called from effects: what the permission becomes must not run them again.
    untrack(() => void browserNotifications().notify(reason, `${text} — Ô ăn quan`));
  }

  /** It waits no more (the opponent's turn, the challenge gone). */
  drop(reason: AttentionReason): void {
    if (!this.#waiting.some((entry) => entry.reason === reason)) return;
    this.#waiting = this.#waiting.filter((entry) => entry.reason !== reason);
    if (this.#waiting.length === 0) this.#restore();
    else this.#show(this.#pageTitle);
  }

  clear(): void {
    browserNotifications().closeAll();
    if (this.#waiting.length === 0) return;
    this.#waiting = [];
    this.#restore();
  }

  #show(pageTitle: string): void {
    this.#pageTitle = pageTitle;
    this.#applied = `${MARK}${this.#waiting.at(-1)!.text} — ${pageTitle}`;
    document.title = this.#applied;
    setIcon(ALERT_ICON);
  }

  #restore(): void {
    document.title = this.#pageTitle;
    setIcon(ICON);
  }
}

function setIcon(href: string): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

let shared: TabAttention | undefined;

export function tabAttention(): TabAttention {
  shared ??= new TabAttention();
  return shared;
}
