import { z } from 'zod';
import { publicPlayer, seat } from './common.js';

/**
 * Quick messages: a closed set of phrases, each shown in the reader's own
 * language. The wire carries only the id, so there is no free text to moderate.
 */
export const phraseIds = ['hello', 'good-luck', 'nice', 'close', 'thanks', 'again', 'gg'] as const;
export const phraseId = z.enum(phraseIds);
export type PhraseId = z.infer<typeof phraseId>;

/** Client → server `phrase:say`: a player speaks to the room; a spectator to the other spectators only. */
export const sayPhrasePayload = z.object({ matchId: z.uuid(), phrase: phraseId }).strict();

/**
 * Server → room `phrase`, never stored. `seat` is the sender's seat in the
 * match, null for a spectator (whose phrase reaches spectators only).
 */
export const phraseMessage = z.object({ matchId: z.uuid(), phrase: phraseId, seat: seat.nullable(), from: publicPlayer });
export type PhraseMessage = z.infer<typeof phraseMessage>;

/** Per person, across their sockets: a burst of this many phrases, refilled at this many per second. */
export const phraseRate = { burst: 3, perSecond: 0.3 } as const;
