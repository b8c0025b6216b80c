import { describe, expect, it } from 'vitest';
import { nameProblem } from '@oanquan/protocol';
import { GUEST_NAME_WORDS, guestName } from './guest-names.js';

// Words that insult when someone is called by them, in either language; a
// guest name may not contain any of them, even as one syllable of two.
const INSULTS: readonly string[] = [
  'lợn', 'heo', 'chó', 'bò', 'gà', 'dê', 'ngựa', 'khỉ', 'chuột', 'rắn', 'mèo', 'vịt', 'ngỗng', 'lừa', 'cáo',
  'cú', 'quạ', 'rùa', 'ốc', 'sâu', 'gián', 'giòi', 'đười ươi', 'khỉ đột', 'trâu', 'ngu', 'đần', 'điên',
  'pig', 'hog', 'swine', 'dog', 'bitch', 'cow', 'chicken', 'goat', 'horse', 'monkey', 'ape', 'rat', 'snake',
  'rooster', 'cock', 'donkey', 'ass', 'weasel', 'worm', 'slug', 'toad', 'vulture', 'fool', 'dumb',
];

// Padded with spaces so that an insult is found only as whole syllables.
const padded = (words: string) => ` ${words.normalize('NFC').toLowerCase()} `;

describe('guest names', () => {
  it('contain no word that insults, in any language, whole or as a syllable', () => {
    for (const [lang, words] of Object.entries(GUEST_NAME_WORDS)) {
      for (const word of words) {
        const insult = INSULTS.find((bad) => padded(word).includes(padded(bad)));
        expect(insult, `${lang}: ${word}`).toBeUndefined();
      }
    }
  });

  it('are a listed word and three digits, a valid player name', () => {
    for (const lang of ['vi', 'en'] as const) {
      for (let i = 0; i < 50; i++) {
        const name = guestName(lang);
        const [, word] = /^(.+) (\d{3})$/.exec(name) ?? [];
        expect(GUEST_NAME_WORDS[lang], name).toContain(word);
        expect(nameProblem(name), name).toBeNull();
      }
    }
  });
});
