/**
 * Who may send a player direct challenges (lichess's "let others challenge
 * me"): everyone, accounts only, the players they follow, or nobody. An
 * account chooses; a guest has no settings and takes them from everyone,
 * within the caps on what waits for one person. Kept apart from its schema
 * so that the web client can list the choices without zod.
 */
export const challengesFromChoices = ['everyone', 'accounts', 'following', 'nobody'] as const;
export type ChallengesFrom = (typeof challengesFromChoices)[number];
