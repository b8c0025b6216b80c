import { z } from 'zod';
import { publicPlayer } from './common.js';
import { limits } from './limits.js';
import { checkUsername } from './names.js';

/**
 * Letters of any script, digits, `_` and `-`: something one can type on
 * another device and say aloud. Stored composed (NFC); compared in its
 * compatibility form, and against look-alikes, by the server.
 */
export const username = z
  .string()
  .trim()
  .normalize('NFC')
  .min(limits.usernameLength.min)
  .max(limits.usernameLength.max)
  .regex(/^[\p{L}\p{M}\p{N}_-]+$/u, 'letters, digits, _ and - only')
  .superRefine(checkUsername);

export const password = z.string().min(limits.passwordLength.min).max(limits.passwordLength.max);

/** POST /api/account: the signed-in guest keeps their account (matches, rating and history stay theirs). */
export const createAccountRequest = z.object({ username, password }).strict();
export type CreateAccountRequest = z.infer<typeof createAccountRequest>;

/** POST /api/session/login. Only lengths are checked, so an old username still gets a plain "wrong" answer. */
export const loginRequest = z
  .object({ username: z.string().trim().min(1).max(limits.usernameLength.max), password: z.string().min(1).max(limits.passwordLength.max) })
  .strict();
export type LoginRequest = z.infer<typeof loginRequest>;

/** POST /api/account/password: every other session of the account is signed out. */
export const changePasswordRequest = z
  .object({ currentPassword: z.string().min(1).max(limits.passwordLength.max), newPassword: password })
  .strict();
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/**
 * POST /api/account/close: the account is closed for good. The current
 * password again (a session left open on a shared computer is not enough),
 * and `confirm: true`, said in so many words.
 */
export const closeAccountRequest = z
  .object({ password: z.string().min(1).max(limits.passwordLength.max), confirm: z.literal(true) })
  .strict();
export type CloseAccountRequest = z.infer<typeof closeAccountRequest>;

/** The signed-in person: a guest has no username. */
export const accountPlayer = publicPlayer.extend({ username: z.string().nullable() });
export type AccountPlayer = z.infer<typeof accountPlayer>;

/**
 * Answer of login and of keeping an account. The session itself travels in
 * an httpOnly cookie; `token` is given only to clients that are not
 * browsers (scripts, tests), which send it as `Authorization: Bearer`.
 */
export const accountResponse = z.object({ player: accountPlayer, token: z.string().optional() });
export type AccountResponse = z.infer<typeof accountResponse>;
