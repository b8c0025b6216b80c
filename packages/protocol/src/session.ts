import { z } from 'zod';
import { playerName, publicPlayer } from './common.js';

/** POST /api/session: a new guest. The token is shown once; keep it. */
export const sessionResponse = z.object({ token: z.string(), player: publicPlayer });
export type SessionResponse = z.infer<typeof sessionResponse>;

/** PATCH /api/me (Authorization: Bearer <token>). */
export const renameRequest = z.object({ name: playerName }).strict();
export type RenameRequest = z.infer<typeof renameRequest>;

/** GET /api/me, PATCH /api/me. */
export const meResponse = z.object({ player: publicPlayer });
export type MeResponse = z.infer<typeof meResponse>;
