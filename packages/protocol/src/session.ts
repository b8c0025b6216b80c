import { z } from 'zod';
import { playerName, publicPlayer } from './common.js';

/** The httpOnly cookie that carries a browser's session: no script reads it, only the server and the pages it renders. */
export const SESSION_COOKIE = 'oq_session';

/**
 * POST /api/session: a new guest, signed in by an httpOnly cookie. A client
 * that is not a browser also gets the token, shown once, to send as
 * `Authorization: Bearer <token>` or as the socket's `auth.token`.
 */
export const sessionResponse = z.object({ token: z.string(), player: publicPlayer });
export type SessionResponse = z.infer<typeof sessionResponse>;

/** POST /api/session from a browser: the token stays in the cookie, out of reach of any script. */
export const browserSessionResponse = z.object({ player: publicPlayer });
export type BrowserSessionResponse = z.infer<typeof browserSessionResponse>;

/** The answer of a request that only succeeds or fails (sign out, change password). */
export const okResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;

/** PATCH /api/me (Authorization: Bearer <token>). */
export const renameRequest = z.object({ name: playerName }).strict();
export type RenameRequest = z.infer<typeof renameRequest>;

/** GET /api/me, PATCH /api/me: a guest's username is null. */
export const meResponse = z.object({ player: publicPlayer, username: z.string().nullable() });
export type MeResponse = z.infer<typeof meResponse>;
