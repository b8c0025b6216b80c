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
  const response = await resolve(event, { transformPageChunk: ({ html }) => html.replace('%lang%', lang).replace('%theme%', theme) });
  return compressPage(response, event.request.headers.get('accept-encoding'));
};

/**
 * A page goes gzipped to a browser that takes it: it carries its style
 * sheets inline (kit.inlineStyleThreshold), and on a phone's slow network
 * its bytes are most of the wait before the first paint. The built files
 * are served precompressed already; the API answers are small.
 */
function compressPage(response: Response, acceptEncoding: string | null): Response {
  if (!response.body || response.headers.has('content-encoding') || !/^text\/html\b/.test(response.headers.get('content-type') ?? '')) return response;
  if (!/\bgzip\b/.test(acceptEncoding ?? '')) return response;
  const headers = new Headers(response.headers);
  headers.set('content-encoding', 'gzip');
  headers.delete('content-length');
  headers.append('vary', 'accept-encoding');
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
  return new Response(response.body.pipeThrough(new CompressionStream('gzip')), { status: response.status, statusText: response.statusText, headers });
}

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
