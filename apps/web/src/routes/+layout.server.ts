import { SESSION_COOKIE } from '@oanquan/protocol';
import type { LayoutServerLoad } from './$types';

// Whether the browser sent a session cookie: the page's scripts cannot see it (httpOnly), only this load can.
export const load: LayoutServerLoad = ({ locals, cookies }) => ({ lang: locals.lang, session: cookies.get(SESSION_COOKIE) !== undefined });
