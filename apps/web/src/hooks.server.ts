import type { Handle } from '@sveltejs/kit';
import { LANG_COOKIE, pickLanguage } from '$lib/i18n/languages';

/** The page language follows the browser until the player picks one (cookie `lang`). */
export const handle: Handle = async ({ event, resolve }) => {
  const lang = pickLanguage(event.cookies.get(LANG_COOKIE), event.request.headers.get('accept-language'));
  event.locals.lang = lang;
  return resolve(event, { transformPageChunk: ({ html }) => html.replace('%lang%', lang) });
};
