import type { Handle } from '@sveltejs/kit';

/** The page language follows the browser until the player picks one (cookie `lang`). */
export const handle: Handle = async ({ event, resolve }) => {
  const chosen = event.cookies.get('lang');
  const accepted = event.request.headers.get('accept-language') ?? '';
  const lang = chosen === 'en' || chosen === 'vi' ? chosen : /^\s*en\b/i.test(accepted) ? 'en' : 'vi';
  return resolve(event, { transformPageChunk: ({ html }) => html.replace('%lang%', lang) });
};
