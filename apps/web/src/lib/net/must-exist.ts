import { error } from '@sveltejs/kit';

/**
 * For a page about one thing (a player, a match, a room): when the API says
 * there is no such thing, the page answers 404 (the error page leads home)
 * instead of a 200 page saying "not found". Any other trouble is left to the
 * page, which shows it and can retry. A player whose account was closed is
 * a 404 that says so.
 */
export async function mustExist(fetch: typeof globalThis.fetch, path: string, code: 'NOT_FOUND' | 'MATCH_NOT_FOUND' | 'ROOM_NOT_FOUND'): Promise<void> {
  const response = await fetch(path, { headers: { accept: 'application/json' } }).catch(() => null);
  if (!response || (response.status !== 404 && response.status !== 400)) return;
  // A closed account is gone for a reason the page can say.
  const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
  error(404, body?.code === 'ACCOUNT_CLOSED' ? 'ACCOUNT_CLOSED' : code);
}
