const KEY = 'oanquan.notifications';

/** `ask`: nobody has been asked yet, and the first moment that matters will ask. */
export type NotifyChoice = 'ask' | 'on' | 'off';

function storedChoice(): NotifyChoice {
  try {
    const stored = localStorage.getItem(KEY);
    if (stored === 'on' || stored === 'off') return stored;
  } catch {
    // Without storage the browser's own permission decides.
  }
  return 'ask';
}

/**
 * Browser notifications of the player's move and of challenges, shown only
 * while the tab is hidden. The browser is asked for its permission once, at
 * the first moment a notification would have been shown (or from the
 * settings page), never on page load; the answer is kept in this browser.
 */
export class BrowserNotifications {
  choice = $state<NotifyChoice>('ask');
  // Until the browser is asked (on the server, before hydration) nothing is claimed either way.
  permission = $state<NotificationPermission | 'unsupported'>('default');
  #shown = new Map<string, Notification>();

  constructor() {
    if (typeof window === 'undefined') return;
    this.choice = storedChoice();
    this.permission = 'Notification' in window ? Notification.permission : 'unsupported';
  }

  /** Whether a notification would be shown now. */
  get on(): boolean {
    return this.permission === 'granted' && this.choice !== 'off';
  }

  #keep(choice: NotifyChoice): void {
    this.choice = choice;
    try {
      localStorage.setItem(KEY, choice);
    } catch {
      // Kept for this page only.
    }
  }

  /** Asks the browser (when it has not answered yet) and keeps what came of it. */
  async enable(): Promise<boolean> {
    if (this.permission === 'unsupported') return false;
    if (this.permission === 'default') this.permission = await Notification.requestPermission();
    this.#keep(this.permission === 'granted' ? 'on' : 'off');
    return this.on;
  }

  disable(): void {
    this.#keep('off');
  }

  /** Shows `title` under `tag` (one per tag), asking first if this is the first time it matters. */
  async notify(tag: string, title: string): Promise<void> {
    if (this.permission === 'unsupported' || this.choice === 'off') return;
    if (this.permission === 'default' && !(this.choice === 'ask' && (await this.enable()))) return;
    if (!this.on) return;
    this.#shown.get(tag)?.close();
    const notification = new Notification(title, { tag, icon: '/favicon.svg' });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
    this.#shown.set(tag, notification);
  }

  /** Closes what was shown: the player is looking at the page. */
  closeAll(): void {
    for (const notification of this.#shown.values()) notification.close();
    this.#shown.clear();
  }
}

let shared: BrowserNotifications | undefined;

export function browserNotifications(): BrowserNotifications {
  shared ??= new BrowserNotifications();
  return shared;
}
