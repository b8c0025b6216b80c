import { SESSION_COOKIE } from '@oanquan/protocol';
import { WHO_COOKIE, expectedWho } from '$lib/net/who-hint';
import type { LayoutServerLoad } from './$types';

// Whether the browser sent a session cookie: the page's scripts cannot see it (httpOnly), only this load can.
export const load: LayoutServerLoad = ({ locals, cookies }) => {
  const session = cookies.get(SESSION_COOKIE) !== undefined;
  return { lang: locals.lang, session, who: expectedWho(session, cookies.get(WHO_COOKIE)) };
};
