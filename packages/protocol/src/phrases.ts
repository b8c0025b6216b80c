import { z } from 'zod';
import { publicPlayer, seat } from './common.js';
import { phraseIds } from './phrase-ids.js';

export { phraseIds, type PhraseId } from './phrase-ids.js';

/**
 * Quick messages: a closed set of phrases. The wire carries only the id, so
 * there is no free text to moderate.
 */
export const phraseId = z.enum(phraseIds);

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
