import { z } from 'zod';
import { ruleOptions, rulesChoice } from './rules-options.js';
import { challengesFromChoices } from './challenges-from.js';
import { timeControl } from './rooms.js';

/**
 * Challenges: a game offered to anyone (an open challenge, listed in the
 * lobby) or to one person (a direct challenge). Taking one makes a room
 * with both seats filled, whose match starts at the opener.
 */
export const challengeTerms = z
  .object({
    rules: rulesChoice.default({ preset: 'classic' }),
    timeControl: timeControl.nullable().default(null),
    /** Rated challenges are made and taken by accounts only (ACCOUNT_REQUIRED). */
    rated: z.boolean().default(false),
  })
  .strict();

/** Client → server `challenge:open`: offer a game to anyone in the lobby. */
export const openChallengePayload = challengeTerms;
/** Client → server `challenge:direct`: offer a game to one person. */
export const directChallengePayload = challengeTerms.extend({ to: z.uuid() }).strict();
/** `challenge:cancel` (its creator), `challenge:accept` (anyone for an open one, its target for a direct one), `challenge:decline` (its target). */
export const challengeIdPayload = z.object({ id: z.uuid() }).strict();
/** `lobby:watch` / `lobby:unwatch`: follow the list of open challenges, or stop. */
export const lobbyPayload = z.object({}).strict();

export const challenge = z.object({
  id: z.uuid(),
  from: z.object({ id: z.uuid(), name: z.string(), rating: z.number(), account: z.boolean() }),
  /** Null for an open challenge. */
  to: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  rules: ruleOptions,
  timeControl: timeControl.nullable(),
  rated: z.boolean(),
  /** When a direct challenge lapses; null for an open one (it lives while its creator is here). */
  expiresAt: z.string().nullable(),
});
export type Challenge = z.infer<typeof challenge>;

/** Why a challenge is gone, as its creator and target are told (`challenge:gone`) and the lobby (`lobby:removed`). */
export const challengeEndings = ['accepted', 'declined', 'cancelled', 'lapsed', 'left'] as const;
export const challengeGone = z.object({ id: z.uuid(), reason: z.enum(challengeEndings) });
export type ChallengeGone = z.infer<typeof challengeGone>;

/** Server → both players of a challenge just taken: go to this room; its match starts with the opener. */
export const challengeAccepted = z.object({ id: z.uuid(), roomCode: z.string(), matchId: z.uuid() });
export type ChallengeAccepted = z.infer<typeof challengeAccepted>;

/** GET /api/blocks: the people the caller blocks. PUT and DELETE /api/blocks/<playerId> block and unblock one. */
export const blockList = z.object({ players: z.array(z.object({ id: z.uuid(), name: z.string() })) });
export type BlockList = z.infer<typeof blockList>;

/** Who may send a player direct challenges (see challenges-from.ts). */
export const challengesFrom = z.enum(challengesFromChoices);

/** GET /api/settings (anyone: a guest's are the defaults) and the answer of PATCH /api/settings. */
export const playerSettings = z.object({ challengesFrom });
export type PlayerSettings = z.infer<typeof playerSettings>;
/** PATCH /api/settings (accounts only): the settings to change. */
export const playerSettingsChange = playerSettings.partial().strict();
export type PlayerSettingsChange = z.infer<typeof playerSettingsChange>;
