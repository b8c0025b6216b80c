/**
 * The quick phrases, by id: each is shown in the reader's own language. Kept
 * apart from their schema so that the web client can list them without zod.
 */
export const phraseIds = ['hello', 'good-luck', 'nice', 'close', 'thanks', 'again', 'gg'] as const;
export type PhraseId = (typeof phraseIds)[number];
