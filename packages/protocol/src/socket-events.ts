import { z } from 'zod';
import { arenaWatchPayload, type ArenaPaired, type ArenaView } from './arenas.js';
import type { ErrorBody } from './error-codes.js';
import { matchVersion, seat } from './common.js';
import { hand, matchSnapshot, wireEnvelope } from './match.js';
import type { WireEnvelope } from './moved.js';
import { matchActionPayload, type Presence } from './lifecycle.js';
import { queueJoinPayload, queueLeavePayload, type QueueMatched, type QueueStatus } from './queue.js';
import { phraseMessage, sayPhrasePayload } from './phrases.js';
import { roomCode } from './rooms.js';
import {
  challenge,
  challengeIdPayload,
  directChallengePayload,
  lobbyPayload,
  openChallengePayload,
  type Challenge,
  type ChallengeAccepted,
  type ChallengeGone,
} from './challenges.js';

/**
 * Client → server events. Each carries an acknowledgement callback; the
 * server answers every one, `{ ok: false, code, message }` on rejection.
 * The player is whoever authenticated the socket (handshake `auth.token`),
 * never a field of the payload.
 */
export const joinRoomPayload = z.object({ code: roomCode }).strict();
/** Stop following a room (the page was left); the player no longer counts as present there. */
export const leaveRoomPayload = z.object({ code: roomCode }).strict();

export const chooseHandPayload = z.object({ matchId: z.uuid(), choice: hand }).strict();

export const movePayload = z
  .object({
    matchId: z.uuid(),
    /** Made by the client; a retry with the same id returns the first outcome. */
    moveId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    /** The match version the player saw when choosing the move. */
    version: matchVersion,
    square: z.number().int().min(0).max(11),
    dir: z.union([z.literal(1), z.literal(-1)]),
  })
  .strict();

export const syncPayload = z.object({ matchId: z.uuid(), version: matchVersion }).strict();

export const clientEvents = {
  'room:join': joinRoomPayload,
  'room:leave': leaveRoomPayload,
  'opener:choose': chooseHandPayload,
  move: movePayload,
  sync: syncPayload,
  resign: matchActionPayload,
  abort: matchActionPayload,
  claim: matchActionPayload,
  rematch: matchActionPayload,
  'queue:join': queueJoinPayload,
  'queue:leave': queueLeavePayload,
  'phrase:say': sayPhrasePayload,
  'lobby:watch': lobbyPayload,
  'lobby:unwatch': lobbyPayload,
  'challenge:open': openChallengePayload,
  'challenge:direct': directChallengePayload,
  'challenge:cancel': challengeIdPayload,
  'challenge:accept': challengeIdPayload,
  'challenge:decline': challengeIdPayload,
  'arena:watch': arenaWatchPayload,
  'arena:unwatch': arenaWatchPayload,
} as const;
export type ClientEventName = keyof typeof clientEvents;
export type ClientPayload<E extends ClientEventName> = z.infer<(typeof clientEvents)[E]>;

export const joinRoomAck = z.object({ ok: z.literal(true), seat: seat.nullable(), snapshot: matchSnapshot });
export const versionAck = z.object({ ok: z.literal(true), version: z.number().int() });
/** The events after the client's version, or a snapshot when that is shorter. */
export const syncAck = z.union([
  z.object({ ok: z.literal(true), events: z.array(wireEnvelope) }),
  z.object({ ok: z.literal(true), snapshot: matchSnapshot }),
]);

export const okAck = z.object({ ok: z.literal(true) });
export const lobbyAck = z.object({ ok: z.literal(true), challenges: z.array(challenge) });
export const challengeAck = z.object({ ok: z.literal(true), challenge });
export const acceptAck = z.object({ ok: z.literal(true), roomCode: z.string(), matchId: z.uuid() });

export interface ClientAcks {
  'room:join': z.infer<typeof joinRoomAck>;
  'room:leave': z.infer<typeof okAck>;
  'opener:choose': z.infer<typeof versionAck>;
  move: z.infer<typeof versionAck>;
  sync: z.infer<typeof syncAck>;
  resign: z.infer<typeof versionAck>;
  abort: z.infer<typeof versionAck>;
  claim: z.infer<typeof versionAck>;
  rematch: z.infer<typeof versionAck>;
  'queue:join': z.infer<typeof okAck>;
  'queue:leave': z.infer<typeof okAck>;
  'phrase:say': z.infer<typeof okAck>;
  'lobby:watch': z.infer<typeof lobbyAck>;
  'lobby:unwatch': z.infer<typeof okAck>;
  'challenge:open': z.infer<typeof challengeAck>;
  'challenge:direct': z.infer<typeof challengeAck>;
  'challenge:cancel': z.infer<typeof okAck>;
  'challenge:accept': z.infer<typeof acceptAck>;
  'challenge:decline': z.infer<typeof okAck>;
  'arena:watch': { ok: true; arena: ArenaView };
  'arena:unwatch': z.infer<typeof okAck>;
}

export type Ack<E extends ClientEventName> = ClientAcks[E] | ErrorBody;

/** Socket.IO's typed maps for both sides. */
export type ClientToServerEvents = {
  [E in ClientEventName]: (payload: ClientPayload<E>, ack: (answer: Ack<E>) => void) => void;
};
export interface ServerToClientEvents {
  'match:event': (envelope: WireEnvelope) => void;
  presence: (presence: Presence) => void;
  'queue:status': (status: QueueStatus) => void;
  'queue:matched': (matched: QueueMatched) => void;
  phrase: (message: z.infer<typeof phraseMessage>) => void;
  /** To everyone following the lobby: an open challenge appeared, or went. */
  'lobby:added': (challenge: Challenge) => void;
  'lobby:removed': (gone: ChallengeGone) => void;
  /** To a direct challenge's target, on every page they have open. */
  'challenge:received': (challenge: Challenge) => void;
  /** To a challenge's creator and target: it was declined, cancelled, or lapsed. */
  'challenge:gone': (gone: ChallengeGone) => void;
  /** To both players once a challenge is taken. */
  'challenge:accepted': (accepted: ChallengeAccepted) => void;
  'arena:standings': (view: ArenaView) => void;
  'arena:paired': (paired: ArenaPaired) => void;
}
