import { channel } from 'node:diagnostics_channel';
import { env } from '$env/dynamic/private';
import type { Handle, HandleFetch, HandleServerError } from '@sveltejs/kit';
import { LANG_COOKIE, PAGE_ERROR_CHANNEL, pickLanguage, type PageError } from '@oanquan/protocol';
import { parseTheme, THEME_COOKIE } from '$lib/settings/theme';

/**
 * The page language follows the browser until the player picks one (cookie
 * `lang`); the theme follows the system until they pick one (cookie `theme`),
 * written into the page so that its first paint is already in it.
 */
export const handle: Handle = async ({ event, resolve }) => {
  const lang = pickLanguage(event.cookies.get(LANG_COOKIE), event.request.headers.get('accept-language'));
  const theme = parseTheme(event.cookies.get(THEME_COOKIE));
  event.locals.lang = lang;
  return resolve(event, { transformPageChunk: ({ html }) => html.replace('%lang%', lang).replace('%theme%', theme) });
};

/**
 * Page loads ask the API about what a page shows (does this room exist?).
 * The API is served by this same process, so they ask it on its own port:
 * behind a proxy the public origin's scheme is not known here.
 */
export const handleFetch: HandleFetch = ({ event, request, fetch }) => {
  const url = new URL(request.url);
  if (url.origin !== event.url.origin || !url.pathname.startsWith('/api/')) return fetch(request);
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return fetch(new Request(`http://${host.includes(':') ? `[${host}]` : host}:${env.PORT ?? '3000'}${url.pathname}${url.search}`, request));
};

const pageErrors = channel(PAGE_ERROR_CHANNEL);

/**
 * A failed page goes to the server process, which logs it as JSON among its
 * other logs (SvelteKit's own line is plain coloured text). Alone, as under
 * `vite dev`, a real error is still printed; a page not found is not one.
 */
export const handleError: HandleServerError = ({ error, event, status, message }) => {
  if (pageErrors.hasSubscribers) pageErrors.publish({ error, status, method: event.request.method, path: event.url.pathname } satisfies PageError);
  else if (status !== 404) console.error(error);
  return { message };
};
