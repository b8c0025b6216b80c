/**
 * Whether this browser's session was a guest's or an account's when a page
 * last learnt it, kept in a plain cookie: the session's own cookie is
 * httpOnly and the server renders a page without asking whom it names, so
 * this lets the home page be served with the guest's note or the account's
 * rated choice already in place, and nothing moves when the session answers.
 * Only a hint for the layout: the session itself decides everything else.
 */
export const WHO_COOKIE = 'who';

export type Who = 'guest' | 'account';

/** What the page is served as: a browser without a session becomes a guest; with one, what it was last (null: not known). */
export function expectedWho(sessionSent: boolean, hint: string | undefined): Who | null {
  if (!sessionSent) return 'guest';
  return hint === 'guest' || hint === 'account' ? hint : null;
}

/** Remembered for a year, as the language is. */
export function rememberWho(who: Who): void {
  document.cookie = `${WHO_COOKIE}=${who}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
}
